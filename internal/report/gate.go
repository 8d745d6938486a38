package report

import (
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// The overhead gate (run and report --max-overhead) turns a report into a
// pass or a fail for CI, as k6's thresholds do: each rule names
// environments, workloads and metrics and the largest cost they may show.
//
// The cost of a cell is its overhead in the bad direction: -overhead_pct
// when higher is better (throughput lost), +overhead_pct otherwise (latency
// or time gained). A cell breaches a rule when its overhead is significant
// (the 95 % interval excludes 0) and its cost exceeds the limit: a large
// overhead that the noise cannot tell from zero passes. A cell without an
// overhead or without an interval (no data, no baseline, one run) is
// unchecked; a rule under which no cell at all could be checked fails, so a
// gate never passes on missing numbers.

// GateRule is one --max-overhead rule: ENV:WORKLOAD[.METRIC]=LIMIT%.
type GateRule struct {
	Text     string  `json:"rule"`      // as given
	Env      string  `json:"env"`       // an environment, or * for every one but the baseline
	Workload string  `json:"workload"`  // a workload, or * for every one
	Metric   string  `json:"metric"`    // a metric; empty: every primary (non-secondary) metric
	LimitPct float64 `json:"limit_pct"` // the largest cost allowed, in percent
}

// GateAll is the wildcard of a rule's environment and workload.
const GateAll = "*"

// GateRuleForm is the form of a rule, for messages.
const GateRuleForm = "ENV:WORKLOAD[.METRIC]=LIMIT% (e.g. docker-bridge:cpu.prime.events_per_s=5%, *:net.rr=10%, *:*=10%)"

// ParseGateRules parses rules given as flag values, each of which may hold
// several comma-separated rules. envNames are the environments a rule may
// name.
func ParseGateRules(values []string, envNames []string) ([]GateRule, error) {
	var out []GateRule
	for _, v := range values {
		for _, text := range splitGateRules(v) {
			if text = strings.TrimSpace(text); text == "" {
				continue
			}
			r, err := ParseGateRule(text, envNames)
			if err != nil {
				return nil, err
			}
			out = append(out, r)
		}
	}
	return out, nil
}

// splitGateRules splits a flag value at the commas between rules. A comma
// before the rule's ':' is inside its environment's name, in a CPU list
// (docker-bridge+cpuset=0,2:cpu.prime=5%), and does not split.
func splitGateRules(v string) []string {
	var out []string
	pending := ""
	for _, part := range strings.Split(v, ",") {
		if pending != "" {
			part = pending + "," + part
		}
		if !strings.Contains(part, ":") && strings.Contains(part, "+cpuset=") {
			pending = part
			continue
		}
		pending = ""
		out = append(out, part)
	}
	if pending != "" {
		out = append(out, pending)
	}
	return out
}

// ParseGateRule parses one rule, ENV:WORKLOAD[.METRIC]=LIMIT%. The split of
// WORKLOAD.METRIC is resolved against the registered workloads, the longest
// workload name first, as both contain dots.
func ParseGateRule(text string, envNames []string) (GateRule, error) {
	r := GateRule{Text: text}
	bad := func(format string, a ...any) (GateRule, error) {
		return GateRule{}, fmt.Errorf("--max-overhead %q: %s", plainText(text), fmt.Sprintf(format, a...))
	}
	// The environment ends at the first ':' and the limit starts at the
	// first '=' after it: an environment's options hold '=' too
	// (docker-bridge+storage=bind:cpu.prime=5%).
	envName, rest, ok := strings.Cut(text, ":")
	if !ok && !strings.Contains(text, "=") {
		return bad("no limit: write %s", GateRuleForm)
	} else if !ok {
		return bad("no environment: write %s", GateRuleForm)
	}
	what, limit, ok := strings.Cut(rest, "=")
	if !ok {
		return bad("no limit: write %s", GateRuleForm)
	}
	envName, what, limit = strings.TrimSpace(envName), strings.TrimSpace(what), strings.TrimSpace(limit)
	num, ok := strings.CutSuffix(limit, "%")
	if !ok {
		return bad("the limit %q is not a percentage: write it with %%, e.g. =5%%", plainText(limit))
	}
	pct, err := strconv.ParseFloat(strings.TrimSpace(num), 64)
	if err != nil || math.IsNaN(pct) || math.IsInf(pct, 0) || pct < 0 {
		return bad("the limit %q is not a percentage of 0 or more, e.g. =5%%", plainText(limit))
	}
	r.LimitPct = pct
	switch {
	case envName == "":
		return bad("no environment before ':': name one or * for every one but the baseline; valid environments: *, %s", strings.Join(envNames, ", "))
	case envName != GateAll && !slices.Contains(envNames, env.BaseName(envName)): // with options: its base
		return bad("unknown environment %q; valid environments: *, %s", plainText(envName), strings.Join(envNames, ", "))
	case envName != GateAll:
		// Named as the study names it: options in key order, none that
		// restates the default (env.ParseName's checks).
		canon, err := env.Check(envName)
		if err != nil {
			return bad("%s", plainText(err.Error()))
		}
		envName = canon
	}
	r.Env = envName
	switch {
	case what == "":
		return bad("no workload after ':': name one, WORKLOAD.METRIC, or *; valid workloads: %s", strings.Join(workload.Names(), ", "))
	case what == GateAll:
		r.Workload = GateAll
		return r, nil
	}
	wl, metric, err := splitWorkloadMetric(what)
	if err != nil {
		return bad("%v", err)
	}
	r.Workload, r.Metric = wl, metric
	return r, nil
}

// splitWorkloadMetric splits WORKLOAD[.METRIC] at the longest registered
// workload name that has the metric.
func splitWorkloadMetric(s string) (wl, metric string, err error) {
	var candidates []string
	for _, n := range workload.Names() {
		if s == n || strings.HasPrefix(s, n+".") {
			candidates = append(candidates, n)
		}
	}
	if len(candidates) == 0 {
		if strings.HasPrefix(s, GateAll+".") {
			return "", "", fmt.Errorf("a metric needs its workload: name the workload (WORKLOAD.METRIC), or * alone for every primary metric of every workload")
		}
		return "", "", fmt.Errorf("unknown workload %q; valid workloads: *, %s", plainText(s), strings.Join(workload.Names(), ", "))
	}
	sort.SliceStable(candidates, func(i, j int) bool { return len(candidates[i]) > len(candidates[j]) })
	for _, n := range candidates {
		if s == n {
			return n, "", nil
		}
		w, err := workload.Lookup(n)
		if err != nil {
			return "", "", err
		}
		if _, ok := w.Info().Metric(s[len(n)+1:]); ok {
			return n, s[len(n)+1:], nil
		}
		if _, dynamic := w.(workload.MetricDeclarer); dynamic {
			// Its metrics come from the study's parameters (cmd's figures):
			// a name matching none of its cells leaves the rule with
			// nothing to check, which fails it.
			return n, s[len(n)+1:], nil
		}
	}
	n := candidates[0]
	w, _ := workload.Lookup(n)
	var names []string
	for _, m := range w.Info().Metrics {
		names = append(names, m.Name)
	}
	return "", "", fmt.Errorf("workload %s has no metric %q; its metrics: %s", n, plainText(s[len(n)+1:]), strings.Join(names, ", "))
}

// GateScope is what a study contains, which a rule must name.
type GateScope struct {
	Baseline  string
	Envs      []string // every environment, the baseline included
	Workloads []string
}

// GateScope is what the report's study contains: its spec's environments
// and workloads, and any its cells have.
func (r *Report) GateScope() GateScope {
	scope := GateScope{Baseline: r.Study.Baseline}
	add := func(xs []string, x string) []string {
		if x == "" || slices.Contains(xs, x) {
			return xs
		}
		return append(xs, x)
	}
	for _, e := range r.layout.Envs {
		scope.Envs = add(scope.Envs, e)
	}
	for _, w := range r.layout.Workloads {
		scope.Workloads = add(scope.Workloads, w)
	}
	for _, c := range r.Cells {
		scope.Envs, scope.Workloads = add(scope.Envs, c.Env), add(scope.Workloads, c.Workload)
	}
	return scope
}

// Check refuses a rule that names an environment or a workload the study
// does not contain, or the baseline, so that a typo or a changed study
// cannot pass the gate by matching nothing.
func (s GateScope) Check(rules []GateRule) error {
	var others []string
	for _, e := range s.Envs {
		if e != s.Baseline {
			others = append(others, e)
		}
	}
	for _, r := range rules {
		switch {
		case r.Env == GateAll && len(others) == 0:
			return fmt.Errorf("--max-overhead %q: the study has no environment besides its baseline %s, so no overhead to check", plainText(r.Text), s.Baseline)
		case r.Env == s.Baseline:
			return fmt.Errorf("--max-overhead %q: %s is the study's baseline, the environment the others are compared with; name one of: *, %s", plainText(r.Text), r.Env, strings.Join(others, ", "))
		case r.Env != GateAll && !slices.Contains(s.Envs, r.Env):
			return fmt.Errorf("--max-overhead %q: the study has no environment %s; its environments besides the baseline %s: %s", plainText(r.Text), r.Env, s.Baseline, strings.Join(others, ", "))
		case r.Workload != GateAll && !slices.Contains(s.Workloads, r.Workload):
			return fmt.Errorf("--max-overhead %q: the study has no workload %s; its workloads: %s", plainText(r.Text), r.Workload, strings.Join(s.Workloads, ", "))
		}
	}
	return nil
}

// Gate results of a cell and of a rule.
const (
	GatePass      = "pass"
	GateFail      = "fail"
	GateUnchecked = "unchecked" // a cell: no overhead or no interval; a rule: no cell could be checked (fails the gate)
)

// GateResult is the outcome of every rule; its JSON form is the report's
// "gate" field.
type GateResult struct {
	Passed bool             `json:"passed"`
	Rules  []GateRuleResult `json:"rules"`
}

// GateRuleResult is one rule and every cell it matched.
type GateRuleResult struct {
	GateRule
	Status    string     `json:"status"` // pass, fail, or unchecked (nothing could be checked: fails)
	Checked   int        `json:"checked"`
	Failed    int        `json:"failed"`
	Unchecked int        `json:"unchecked"`
	Cells     []GateCell `json:"cells"`
}

// GateCell is one cell a rule matched.
type GateCell struct {
	Env            string            `json:"env"`
	Workload       string            `json:"workload"`
	Levels         map[string]string `json:"levels"`
	Metric         string            `json:"metric"`
	HigherIsBetter bool              `json:"higher_is_better"`
	CostPct        *float64          `json:"cost_pct"`  // the overhead in the bad direction; null when unchecked
	CostCI95       []*float64        `json:"cost_ci95"` // its 95 % interval
	Significant    bool              `json:"significant"`
	LimitPct       float64           `json:"limit_pct"`
	Status         string            `json:"status"`         // pass, fail or unchecked
	Note           string            `json:"note,omitempty"` // why unchecked
}

// Failed is the number of rules that did not pass.
func (g GateResult) Failed() int {
	n := 0
	for _, r := range g.Rules {
		if r.Status != GatePass {
			n++
		}
	}
	return n
}

// EvaluateGate checks every rule against the report's cells.
func EvaluateGate(r *Report, rules []GateRule) GateResult {
	type cellKey struct{ group, metric, env string }
	have := map[cellKey]bool{}
	for i := range r.Cells {
		c := &r.Cells[i]
		have[cellKey{c.group, c.Metric, c.Env}] = true
	}
	out := GateResult{Passed: true, Rules: []GateRuleResult{}}
	for _, rule := range rules {
		res := GateRuleResult{GateRule: rule, Cells: []GateCell{}}
		for i := range r.Cells {
			c := &r.Cells[i]
			if !rule.matchesMetric(c) {
				continue
			}
			if !c.IsBaseline {
				if rule.Env == GateAll || rule.Env == c.Env {
					res.add(gateCell(c, rule.LimitPct))
				}
				continue
			}
			// A baseline cell without its counterpart: that environment
			// has no data for it (every run failed, or none ran).
			for _, e := range r.envs {
				if e == c.Env || (rule.Env != GateAll && rule.Env != e) || have[cellKey{c.group, c.Metric, e}] {
					continue
				}
				levels := map[string]string{}
				for k, v := range c.Levels {
					levels[k] = v
				}
				levels["env"] = e
				res.add(GateCell{Env: e, Workload: c.Workload, Levels: levels, Metric: c.Metric, HigherIsBetter: c.HigherIsBetter,
					CostCI95: []*float64{nil, nil}, LimitPct: rule.LimitPct, Status: GateUnchecked, Note: "no data: no successful run"})
			}
		}
		switch {
		case res.Failed > 0:
			res.Status = GateFail
		case res.Checked == 0:
			res.Status = GateUnchecked
		default:
			res.Status = GatePass
		}
		if res.Status != GatePass {
			out.Passed = false
		}
		out.Rules = append(out.Rules, res)
	}
	return out
}

func (res *GateRuleResult) add(c GateCell) {
	res.Cells = append(res.Cells, c)
	switch c.Status {
	case GateUnchecked:
		res.Unchecked++
	case GateFail:
		res.Failed++
		res.Checked++
	default:
		res.Checked++
	}
}

// matchesMetric says whether the rule's workload and metric select c.
func (rule GateRule) matchesMetric(c *Cell) bool {
	if rule.Workload != GateAll && rule.Workload != c.Workload {
		return false
	}
	if rule.Metric != "" {
		return rule.Metric == c.Metric
	}
	return !c.secondary && primaryMetric(c.Workload, c.Metric)
}

// primaryMetric says whether the workload declares the metric and not as
// secondary: host monitors and energy figures are not the workload's.
func primaryMetric(wl, metric string) bool {
	w, err := workload.Lookup(wl)
	if err != nil {
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

// gateCell judges one cell against a limit.
func gateCell(c *Cell, limitPct float64) GateCell {
	g := GateCell{Env: c.Env, Workload: c.Workload, Levels: c.Levels, Metric: c.Metric, HigherIsBetter: c.HigherIsBetter,
		CostCI95: []*float64{nil, nil}, Significant: c.Significant, LimitPct: limitPct}
	var lo, hi *float64
	if len(c.OverheadCI95) == 2 {
		lo, hi = c.OverheadCI95[0], c.OverheadCI95[1]
	}
	if c.OverheadPct == nil || lo == nil || hi == nil {
		g.Status, g.Note = GateUnchecked, c.OverheadNote
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
	if g.Status == GateUnchecked {
		return g
	}
	g.Status = GatePass
	if c.Significant && cost > limitPct {
		g.Status = GateFail
	}
	return g
}

func neg(p *float64) *float64 {
	v := -*p
	return &v
}

// WriteGate prints the gate's result: each rule, then each cell it
// matched with its cost, the cost's 95 % interval, the limit and the
// verdict.
func WriteGate(w io.Writer, g GateResult) error {
	verdict := "PASS"
	if !g.Passed {
		verdict = fmt.Sprintf("FAIL (%d of %d rules)", g.Failed(), len(g.Rules))
	}
	fmt.Fprintf(w, "\ngate: %s; cost = overhead in the bad direction, FAIL when significant (95 %% interval excludes 0) and above the limit\n", verdict)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range g.Rules {
		// A line without tabs ends tabwriter's columns: each rule's cells
		// align among themselves.
		fmt.Fprintf(tw, "%s: %s (%d checked, %d failed, %d unchecked)\n", plainText(r.Text), strings.ToUpper(r.Status), r.Checked, r.Failed, r.Unchecked)
		if len(r.Cells) == 0 {
			fmt.Fprintf(tw, "  no cell of the study matches\n")
			continue
		}
		fmt.Fprintf(tw, "  ENV\tWORKLOAD\tLEVELS\tMETRIC\tCOST\t95%% CI\tLIMIT\tRESULT\n")
		for _, c := range r.Cells {
			cost, ci := "-", "-"
			if c.CostPct != nil {
				cost, ci = fmtPct(*c.CostPct), fmtInterval(c.CostCI95)
			}
			status := strings.ToUpper(c.Status)
			if c.Note != "" {
				status += ": " + plainText(c.Note)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s%%\t%s\n", c.Env, c.Workload, gateLevels(c.Levels), c.Metric, cost, ci,
				strconv.FormatFloat(c.LimitPct, 'g', -1, 64), status)
		}
	}
	return tw.Flush()
}

func fmtInterval(ci []*float64) string {
	if len(ci) != 2 || ci[0] == nil || ci[1] == nil {
		return "none"
	}
	return fmt.Sprintf("[%+.1f, %+.1f]", *ci[0], *ci[1])
}

// gateLevels prints the levels of every factor but env, or - when none.
func gateLevels(levels map[string]string) string {
	var parts []string
	for k, v := range levels {
		if k != "env" {
			parts = append(parts, plainText(k+"="+v))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// plainText replaces what a terminal would interpret (control characters,
// escapes) so that a rule or a level prints as the text it is.
func plainText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '?'
	}, s)
}
