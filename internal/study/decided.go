package study

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// Decisions is an adaptive study's stopping rule read from its stored
// samples (issue 28 item 5): every primary metric of every cell besides
// the baseline is judged by stats.Decide, the rule the report's verdict
// uses: it costs (its 95 % interval of the overhead excludes 0), it makes
// no difference beyond ±margin (the whole interval lies inside), or it is
// undecided. Done when every judged cell is decided. A clear cost is
// decided without a narrow interval, so this ends far sooner than asking
// every interval to be within ±margin.
type Decisions struct {
	Done      bool
	MarginPct float64
	Cells     []CellDecision // in the spec's order
}

// CellDecision is one judged cell and metric: its verdict and the noise
// measured on this host, which is why an undecided cell is undecided.
type CellDecision struct {
	Row, Label, Env string // the row (workload and factor levels), the metric's label, the environment
	Verdict         stats.Verdict
	// CVPct and BaselineCVPct are the coefficients of variation of the
	// cell's values and of its baseline's, in percent of their means;
	// NaN when not defined.
	CVPct, BaselineCVPct float64
}

// Name is the cell as the run's lines name it: row, metric @ environment.
func (c CellDecision) Name() string { return fmt.Sprintf("%s %s @ %s", c.Row, c.Label, c.Env) }

// Decided tells whether the cell has its answer.
func (c CellDecision) Decided() bool { return c.Verdict.Decision != stats.Undecided }

// DecisionsOf judges the measured runs and their samples (each run's
// figure, instance 0) with the spec's margin (its adaptive precision_pct,
// else DefaultPrecisionPct). Without a cell to judge it is not done.
func DecisionsOf(spec *Spec, runs []store.Run, samples []store.Sample) Decisions {
	return decisionsOf(spec, runs, samples, false)
}

// DecisionsPaired is DecisionsOf with each cell's runs paired with its
// baseline's of the same round (stats.PairedOverhead, as report --paired
// has it): the rule bench/time-to-answer.sh also measures, to tell whether
// pairing by round would decide sooner on a host whose rounds drift.
func DecisionsPaired(spec *Spec, runs []store.Run, samples []store.Sample) Decisions {
	return decisionsOf(spec, runs, samples, true)
}

func decisionsOf(spec *Spec, runs []store.Run, samples []store.Sample, paired bool) Decisions {
	margin := DefaultPrecisionPct
	if spec.Adaptive != nil && spec.Adaptive.PrecisionPct > 0 {
		margin = spec.Adaptive.PrecisionPct
	}
	cells := precisionCells(runs, samples)
	factors := levelNames(runs)
	d := Decisions{MarginPct: margin}
	for _, k := range spec.judgedCells(cells, runs) {
		c := cells[k]
		cd := CellDecision{Row: rowOf(c.run, factors), Label: c.label, Env: c.run.Env, CVPct: cvPct(c.values), BaselineCVPct: math.NaN()}
		if base, ok := spec.baselineOf(cells, k); ok {
			if paired {
				b, x := pairedByRound(base, c)
				cd.Verdict = stats.Decide(stats.PairedOverhead(b, x, 0.95), len(b), margin)
			} else {
				cd.Verdict = stats.Decide(stats.Overhead(base.values, c.values, 0.95), min(len(base.values), len(c.values)), margin)
			}
			cd.BaselineCVPct = cvPct(base.values)
		} else {
			nan := math.NaN()
			cd.Verdict = stats.Verdict{Pct: nan, LoPct: nan, HiPct: nan, MarginPct: margin, MoreRounds: -1, WithinPct: nan}
		}
		d.Cells = append(d.Cells, cd)
	}
	d.Done = len(d.Cells) > 0 && len(d.Undecided()) == 0
	return d
}

// pairedByRound are the values of base and c measured in the same rounds,
// in c's order: the pairs of a blocked design.
func pairedByRound(base, c *precisionCell) (b, x []float64) {
	return PairByRound(base.values, base.reps, c.values, c.reps)
}

// PairByRound pairs each value of xs with the baseline's value of the same
// round (bs and xs measured in rounds bReps and xReps); values whose round
// the baseline lacks are left out. The report's paired estimate uses it too.
func PairByRound(bs []float64, bReps []int, xs []float64, xReps []int) (b, x []float64) {
	of := map[int]float64{}
	for i, r := range bReps {
		of[r] = bs[i]
	}
	for i, r := range xReps {
		if v, ok := of[r]; ok {
			b, x = append(b, v), append(x, xs[i])
		}
	}
	return b, x
}

// reachable tells whether more rounds may still decide something: no
// undecided cell is listed (a judgement without cells: only the maximum
// or the budget ends it), or some undecided cell is estimated to be
// decided within left more rounds. A cell without an estimate
// (MoreRounds -1: no interval, or its estimate sits on the margin) does
// not count: more rounds of the same kind are not shown to help it.
func (d Decisions) reachable(left int) bool {
	und := d.Undecided()
	for _, c := range und {
		if m := c.Verdict.MoreRounds; m > 0 && m <= left {
			return true
		}
	}
	return len(und) == 0
}

// Undecided are the cells without an answer yet.
func (d Decisions) Undecided() []CellDecision {
	return slices.DeleteFunc(slices.Clone(d.Cells), CellDecision.Decided)
}

// Summary says in one line how far the study got: how many cells are
// decided, how, and the first undecided ones with their intervals.
func (d Decisions) Summary() string {
	costs, none := 0, 0
	for _, c := range d.Cells {
		switch c.Verdict.Decision {
		case stats.Costs:
			costs++
		case stats.NoDifference:
			none++
		}
	}
	s := fmt.Sprintf("%d of %d cells decided (%d cost, %d no difference beyond ±%g%%)", costs+none, len(d.Cells), costs, none, d.MarginPct)
	und := d.Undecided()
	if len(und) == 0 {
		return s
	}
	const show = 5
	var names []string
	for _, c := range und[:min(show, len(und))] {
		names = append(names, fmt.Sprintf("%s (%s)", c.Name(), interval(c.Verdict)))
	}
	more := ""
	if len(und) > show {
		more = fmt.Sprintf(" and %d more", len(und)-show)
	}
	return s + "; undecided: " + strings.Join(names, ", ") + more
}

// interval is an overhead with its interval, or why there is none.
func interval(v stats.Verdict) string {
	if math.IsNaN(v.LoPct) || math.IsNaN(v.HiPct) || math.IsInf(v.LoPct, 0) || math.IsInf(v.HiPct, 0) {
		return "no interval"
	}
	return fmt.Sprintf("%+.1f%% [%+.1f, %+.1f]", v.Pct, v.LoPct, v.HiPct)
}

// judgedCells are the keys of the primary metrics of every cell besides
// the baseline, in the spec's order.
func (s *Spec) judgedCells(cells map[precisionKey]*precisionCell, runs []store.Run) []precisionKey {
	var judged []precisionKey
	for k, c := range cells {
		if c.primary && c.run.Env != s.Baseline {
			judged = append(judged, k)
		}
	}
	s.sortJudged(judged, cells, levelNames(runs))
	return judged
}

// cvPct is the coefficient of variation of xs in percent; NaN without one.
func cvPct(xs []float64) float64 {
	if len(xs) < 2 {
		return math.NaN()
	}
	return stats.Describe(xs).CV * 100
}
