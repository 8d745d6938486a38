package gate

import (
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/workload"
)

// Gate results of a cell and of a rule.
const (
	Pass      = "pass"      // a cell: the cost's interval lies at or below the limit
	Fail      = "fail"      // a cell: the cost's interval lies above the limit
	Undecided = "undecided" // a cell: the interval reaches past the limit but not wholly; fails only with FailUndecided
	Unchecked = "unchecked" // a cell: no overhead or no interval; a rule: no cell could be checked (fails the gate)
)

// Result is the outcome of every rule; its JSON form is the report's
// "gate" field.
type Result struct {
	Passed bool `json:"passed"`
	// FailUndecided says that undecided cells failed their rules
	// (--fail-undecided): a cell had to be shown within its limit.
	FailUndecided bool         `json:"fail_undecided"`
	Rules         []RuleResult `json:"rules"`
}

// RuleResult is one rule and every cell it matched.
type RuleResult struct {
	Rule
	Status    string `json:"status"` // pass, fail, or unchecked (nothing could be checked: fails)
	Checked   int    `json:"checked"`
	Failed    int    `json:"failed"`
	Undecided int    `json:"undecided"` // checked cells not shown within the limit nor above it
	Unchecked int    `json:"unchecked"`
	Cells     []Cell `json:"cells"`
}

// Cell is one cell a rule matched.
type Cell struct {
	Env            string            `json:"env"`
	Workload       string            `json:"workload"`
	Levels         map[string]string `json:"levels"`
	Metric         string            `json:"metric"`
	HigherIsBetter bool              `json:"higher_is_better"`
	CostPct        *float64          `json:"cost_pct"`  // the overhead in the bad direction; null when unchecked
	CostCI95       []*float64        `json:"cost_ci95"` // its 95 % interval
	Significant    bool              `json:"significant"`
	LimitPct       float64           `json:"limit_pct"`
	Status         string            `json:"status"`         // pass, fail, undecided or unchecked
	Note           string            `json:"note,omitempty"` // why unchecked
}

// Failed is the number of rules that did not pass.
func (g Result) Failed() int {
	n := 0
	for _, r := range g.Rules {
		if r.Status != Pass {
			n++
		}
	}
	return n
}

// Evaluate checks every rule against the report's cells; an undecided
// cell is listed and does not fail its rule.
func (cat Catalog) Evaluate(r *report.Report, rules []Rule) Result {
	return cat.Judge(r, rules, false)
}

// Judge checks every rule against the report's cells; with failUndecided
// a cell that cannot be shown within its limit fails its rule too.
func (cat Catalog) Judge(r *report.Report, rules []Rule, failUndecided bool) Result {
	type cellKey struct{ group, metric, env string }
	have := map[cellKey]bool{}
	for i := range r.Cells {
		c := &r.Cells[i]
		have[cellKey{c.Group, c.Metric, c.Env}] = true
	}
	out := Result{Passed: true, FailUndecided: failUndecided, Rules: []RuleResult{}}
	for _, rule := range rules {
		res := RuleResult{Rule: rule, Cells: []Cell{}}
		for i := range r.Cells {
			c := &r.Cells[i]
			if !rule.matchesMetric(c, cat) {
				continue
			}
			if !c.IsBaseline {
				if rule.Env == All || rule.Env == c.Env {
					res.add(judge(c, rule.LimitPct))
				}
				continue
			}
			// A baseline cell without its counterpart: that environment
			// has no data for it (every run failed, or none ran).
			for _, e := range r.Envs() {
				if e == c.Env || (rule.Env != All && rule.Env != e) || have[cellKey{c.Group, c.Metric, e}] {
					continue
				}
				levels := map[string]string{}
				for k, v := range c.Levels {
					levels[k] = v
				}
				levels["env"] = e
				res.add(Cell{Env: e, Workload: c.Workload, Levels: levels, Metric: c.Metric, HigherIsBetter: c.HigherIsBetter,
					CostCI95: []*float64{nil, nil}, LimitPct: rule.LimitPct, Status: Unchecked, Note: "no data: no successful run"})
			}
		}
		switch {
		case res.Failed > 0, failUndecided && res.Undecided > 0:
			res.Status = Fail
		case res.Checked == 0:
			res.Status = Unchecked
		default:
			res.Status = Pass
		}
		if res.Status != Pass {
			out.Passed = false
		}
		out.Rules = append(out.Rules, res)
	}
	return out
}

func (res *RuleResult) add(c Cell) {
	res.Cells = append(res.Cells, c)
	switch c.Status {
	case Unchecked:
		res.Unchecked++
	case Fail:
		res.Failed++
		res.Checked++
	case Undecided:
		res.Undecided++
		res.Checked++
	default:
		res.Checked++
	}
}

// matchesMetric says whether the rule's workload and metric select c.
func (rule Rule) matchesMetric(c *report.Cell, cat Catalog) bool {
	if rule.Workload != All && rule.Workload != c.Workload {
		return false
	}
	if rule.Metric != "" {
		return rule.Metric == c.Metric
	}
	return !c.Secondary && cat.primaryMetric(c.Workload, c.Metric)
}

// primaryMetric says whether the workload declares the metric and not as
// secondary: host monitors and energy figures are not the workload's.
func (cat Catalog) primaryMetric(wl, metric string) bool {
	w, ok := cat.lookup(wl)
	if !ok {
		return false
	}
	if _, dynamic := w.(workload.MetricDeclarer); dynamic {
		// declared by the run's parameters; the cell knows whether it
		// is secondary
		return !strings.HasPrefix(metric, "mon.") && !strings.HasPrefix(metric, "energy.")
	}
	m, ok := w.Info().Metric(metric)
	return ok && !m.Secondary
}

// judge judges one cell against a limit.
func judge(c *report.Cell, limitPct float64) Cell {
	g := Cell{Env: c.Env, Workload: c.Workload, Levels: c.Levels, Metric: c.Metric, HigherIsBetter: c.HigherIsBetter,
		CostCI95: []*float64{nil, nil}, Significant: c.Significant, LimitPct: limitPct}
	var lo, hi *float64
	if len(c.OverheadCI95) == 2 {
		lo, hi = c.OverheadCI95[0], c.OverheadCI95[1]
	}
	if c.OverheadPct == nil || lo == nil || hi == nil {
		g.Status, g.Note = Unchecked, c.OverheadNote
		if g.Note == "" {
			g.Note = "no overhead"
		}
		if c.OverheadPct == nil {
			return g
		}
	}
	cost := *c.OverheadPct
	if c.HigherIsBetter {
		cost = -cost
		if lo != nil && hi != nil {
			lo, hi = neg(hi), neg(lo)
		}
	}
	g.CostPct, g.CostCI95 = &cost, []*float64{lo, hi}
	if g.Status == Unchecked {
		return g
	}
	switch {
	case *lo > limitPct:
		g.Status = Fail // shown above the limit
	case *hi > limitPct:
		g.Status = Undecided // neither shown above nor within
	default:
		g.Status = Pass // shown within: the whole interval at or below the limit
	}
	return g
}

func neg(p *float64) *float64 {
	v := -*p
	return &v
}
