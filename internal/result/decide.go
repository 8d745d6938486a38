package result

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// DefaultMarginPct is the margin p of "no difference beyond ±p %" when
// the study sets none: --precision's default.
const DefaultMarginPct = 2.0

// Layout is what the decisions take from the study's spec: the baseline,
// the order of environments and workloads, and the margin (an adaptive
// study's precision_pct; 0: DefaultMarginPct).
type Layout struct {
	Baseline        string
	Envs, Workloads []string
	MarginPct       float64
	// FirstRounds is an adaptive study's first whole rounds, after which
	// it looks after every round (Cells.Settled); 0: no looks.
	FirstRounds int
	// Earlier holds what earlier studies of the same host measured of
	// each cell; the unpaired intervals carry their spread (nil: none).
	Earlier Earlier
}

// Decisions is an adaptive study's answer read from its stored samples
// (issue 28 item 5, issue 43): every primary metric of every cell besides
// the baseline is judged by its firm verdict (Overhead.Answer,
// stats.DecideFirm): it costs (its firm interval, which holds the
// 99 % one, lies wholly beyond ±margin), it makes no difference beyond
// ±margin (the whole firm interval lies inside), or it is undecided. The stopping rule acts
// on it after every round, and the run's end lines and the report say it
// where the study stopped: one verdict. Done when every judged cell is
// decided. A clear cost is decided without a narrow interval, so this
// ends far sooner than asking every interval to be within ±margin.
type Decisions struct {
	Done      bool
	MarginPct float64
	Cells     []CellDecision // in the spec's order
}

// CellDecision is one judged cell and metric: its verdict and the noise
// measured on this host, which is why an undecided cell is undecided.
type CellDecision struct {
	Row, Label, Env string // the row (workload and factor levels), the metric's label, the environment
	// Verdict is the cell's firm verdict (Overhead.Answer): what the rule
	// acts on and the study answers if it ends here.
	Verdict stats.Verdict
	// CVPct and BaselineCVPct are the coefficients of variation of the
	// cell's values and of its baseline's, in percent of their means;
	// NaN when not defined.
	CVPct, BaselineCVPct float64
	// Cell and BaselineCell are the keys of the run cells behind it: the
	// cell's own and its baseline's ("" when not measured).
	Cell, BaselineCell string
}

// Name is the cell as the run's lines name it: row, metric @ environment.
func (c CellDecision) Name() string { return fmt.Sprintf("%s %s @ %s", c.Row, c.Label, c.Env) }

// Decided tells whether the cell has its answer.
func (c CellDecision) Decided() bool { return c.Verdict.Decision != stats.Undecided }

// Decide judges the measured runs and their samples (each run's figure,
// instance 0) as the stopping rule does. paired pairs each cell's runs
// with its baseline's of the same round (stats.PairedOverhead, as report
// --paired has it): the rule bench/time-to-answer.sh also measures, to
// tell whether pairing by round would decide sooner on a host whose
// rounds drift. Without a cell to judge it is not done.
func Decide(lay Layout, runs []store.Run, samples []store.Sample, paired bool) Decisions {
	margin := lay.MarginPct
	if margin <= 0 {
		margin = DefaultMarginPct
	}
	cs := Gather(runs, samples)
	factors := Factors(runs)
	d := Decisions{MarginPct: margin}
	for _, c := range lay.judged(cs, factors) {
		cd := CellDecision{Row: RowName(c.Run.Workload, c.Run.Levels, factors), Label: c.Label, Env: c.Run.Env,
			CVPct: cvPct(c.Values), BaselineCVPct: math.NaN(), Cell: c.Run.CellKey}
		if base, ok := cs.Baseline(c, lay.Baseline); ok {
			cd.BaselineCell, cd.BaselineCVPct = base.Run.CellKey, cvPct(base.Values)
			if paired {
				b, x := PairByRound(base.Values, base.Reps, c.Values, c.Reps)
				o := stats.PairedOverhead(b, x, 0.95)
				cd.Verdict = stats.DecideFirm(o, len(b), margin)
			} else {
				o, ok := cs.Settled(c, base, lay.Earlier.Of(c), margin, lay.FirstRounds)
				if !ok {
					o = cs.Against(c, base).WithStudies(lay.Earlier.Of(c))
				}
				cd.Verdict = o.Answer(margin)
			}
		} else {
			nan := math.NaN()
			cd.Verdict = stats.Verdict{Pct: nan, LoPct: nan, HiPct: nan, MarginPct: margin, MoreRounds: -1, WithinPct: nan}
		}
		d.Cells = append(d.Cells, cd)
	}
	d.Done = len(d.Cells) > 0 && len(d.Undecided()) == 0
	return d
}

// judged are the primary metrics of every cell besides the baseline, in
// the spec's order: workloads, then rows, environments and metrics.
func (lay Layout) judged(cs *Cells, factors []string) []*Cell {
	var out []*Cell
	for _, c := range cs.List {
		if !c.Secondary && c.Run.Env != lay.Baseline {
			out = append(out, c)
		}
	}
	slices.SortStableFunc(out, func(a, b *Cell) int {
		return cmp.Or(cmp.Compare(slices.Index(lay.Workloads, a.Run.Workload), slices.Index(lay.Workloads, b.Run.Workload)),
			cmp.Compare(RowName(a.Run.Workload, a.Run.Levels, factors), RowName(b.Run.Workload, b.Run.Levels, factors)),
			cmp.Compare(slices.Index(lay.Envs, a.Run.Env), slices.Index(lay.Envs, b.Run.Env)),
			cmp.Compare(a.Metric, b.Metric))
	})
	return out
}

// FocusSlack is how far past the rounds left a cell's estimate of
// further rounds may reach and the cell still be measured: the estimate
// rests on a standard deviation from a few runs (from 4 runs, uncertain by
// about 40 %, so the rounds it implies by about a factor of 2), and a
// cell estimated just past the budget is often decided within it.
const FocusSlack = 2

// Focus chooses the run cells of an adaptive study's next round: the
// undecided cells that are likely to be decided in the rounds left, each
// with its baseline. fit says how many rounds of a set of run cells the
// budget and the maximum still hold. The most cells are taken for which
// every estimate (stats.Verdict.MoreRounds) is at most FocusSlack times
// the rounds fit leaves for them: dropping the furthest cells makes each
// round shorter and so leaves more rounds for the rest. A cell without
// an estimate (MoreRounds -1: too few values for an interval, a zero
// baseline mean, its estimate sits on the margin, or its halves lie apart;
// a cell whose interval is unbounded has one) is not chosen: more rounds
// of the same kind are not shown to help it.
//
// When no set fits so, the nearest cell alone is kept while one round of
// it still fits and its estimate is within most, the rounds the study's
// maximum leaves: the budget is the user's, an estimate from 3 to 5
// rounds is uncertain by a factor of 2 or more, and a cell a study leaves
// at a few rounds is one a study run again decides where this one did
// not (issue 43: bench/seqsim -replicate -reach, docs/design/006). keep is
// nil when no cell is within reach; nearest is then the run cells of the
// undecided cell nearest its answer (nil without one), to tell a budget
// spent from cells out of reach.
func (d Decisions) Focus(fit func(cells map[string]bool) int, most int) (keep, nearest map[string]bool) {
	var cands []CellDecision
	for _, c := range d.Undecided() {
		if c.Verdict.MoreRounds > 0 && c.Cell != "" {
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b CellDecision) int { return a.Verdict.MoreRounds - b.Verdict.MoreRounds })
	for k := len(cands); k > 0; k-- {
		keys := RunCells(cands[:k])
		if left := fit(keys); left > 0 && cands[k-1].Verdict.MoreRounds <= FocusSlack*left {
			return keys, nil
		}
	}
	if len(cands) > 0 {
		near := RunCells(cands[:1])
		if cands[0].Verdict.MoreRounds <= most && fit(near) > 0 {
			return near, nil
		}
		return nil, near
	}
	return nil, nil
}

// RunCells are the keys of the run cells behind cs: each cell's own and
// its baseline's.
func RunCells(cs []CellDecision) map[string]bool {
	keys := map[string]bool{}
	for _, c := range cs {
		keys[c.Cell] = true
		if c.BaselineCell != "" {
			keys[c.BaselineCell] = true
		}
	}
	return keys
}

// Undecided are the cells without an answer yet.
func (d Decisions) Undecided() []CellDecision {
	return slices.DeleteFunc(slices.Clone(d.Cells), CellDecision.Decided)
}

// Summary says in one line how far the study got: how many cells are
// decided, how, and the first undecided ones with their intervals.
func (d Decisions) Summary() string {
	s := d.Counts()
	und := d.Undecided()
	if len(und) == 0 {
		return s
	}
	const show = 5
	var names []string
	for _, c := range und[:min(show, len(und))] {
		if c.Verdict.HostChanged {
			names = append(names, fmt.Sprintf("%s (%s)", c.Name(), c.Verdict.HostChangedText()))
			continue
		}
		names = append(names, fmt.Sprintf("%s (%s)", c.Name(), Interval(c.Verdict)))
	}
	more := ""
	if len(und) > show {
		more = fmt.Sprintf(" and %d more", len(und)-show)
	}
	return s + "; undecided: " + strings.Join(names, ", ") + more
}

// Counts says how many cells are decided, and how, and how many more
// lean to a verdict that is not firm yet: "6 of 28 cells decided (5
// cost, 1 no difference beyond ±2%); 3 more lean (2 to a cost, 1 to no
// difference), not firm".
func (d Decisions) Counts() string {
	costs, none, leanCost, leanNone := 0, 0, 0, 0
	for _, c := range d.Cells {
		switch {
		case c.Verdict.Decision == stats.Costs:
			costs++
		case c.Verdict.Decision == stats.NoDifference:
			none++
		case c.Verdict.Leans == stats.Costs:
			leanCost++
		case c.Verdict.Leans == stats.NoDifference:
			leanNone++
		}
	}
	s := fmt.Sprintf("%d of %d cells decided (%d cost, %d no difference beyond ±%g%%)", costs+none, len(d.Cells), costs, none, d.MarginPct)
	if leanCost+leanNone > 0 {
		s += fmt.Sprintf("; %d more lean (%d to a cost, %d to no difference), not firm", leanCost+leanNone, leanCost, leanNone)
	}
	return s
}

// Interval is an overhead with its interval, or why there is none, and
// the verdict an undecided one leans to: "+21.0% [+8.0, +37.0], leans to
// a cost, not firm".
func Interval(v stats.Verdict) string {
	if math.IsNaN(v.LoPct) || math.IsNaN(v.HiPct) || math.IsInf(v.LoPct, 0) || math.IsInf(v.HiPct, 0) {
		return "no interval"
	}
	s := fmt.Sprintf("%+.1f%% [%+.1f, %+.1f]", v.Pct, v.LoPct, v.HiPct)
	switch v.Leans {
	case stats.Costs:
		s += ", leans to a cost, not firm"
	case stats.NoDifference:
		s += ", leans to no difference, not firm"
	}
	return s
}

// cvPct is the coefficient of variation of xs in percent; NaN without one.
func cvPct(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	return stats.Describe(xs).CV * 100
}
