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
// the baseline is judged by stats.DecideToStop, the report's verdict
// (stats.Decide) made safe for a rule that looks after every round: it
// costs (its 99 % interval of the overhead excludes 0, stats.CostStopLevel,
// and so its 95 % one), it makes no difference beyond ±margin (the whole
// 95 % interval lies inside), or it is undecided. Done when every judged
// cell is decided. A clear cost is
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
	// Cell and BaselineCell are the keys of the run cells behind it: the
	// cell's own and its baseline's ("" when not measured).
	Cell, BaselineCell string
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
	planned := PlannedRounds(runs)
	margin := DefaultPrecisionPct
	if spec.Adaptive != nil && spec.Adaptive.PrecisionPct > 0 {
		margin = spec.Adaptive.PrecisionPct
	}
	cells := precisionCells(runs, samples)
	factors := levelNames(runs)
	d := Decisions{MarginPct: margin}
	for _, k := range spec.judgedCells(cells, runs) {
		c := cells[k]
		cd := CellDecision{Row: rowOf(c.run, factors), Label: c.label, Env: c.run.Env, CVPct: cvPct(c.values), BaselineCVPct: math.NaN(), Cell: c.run.CellKey}
		if base, ok := spec.baselineOf(cells, k); ok {
			cd.BaselineCell = base.run.CellKey
			if paired {
				b, x := pairedByRound(base, c)
				cd.Verdict = stats.DecideToStop(stats.PairedOverhead(b, x, 0.95), stats.PairedOverhead(b, x, stats.CostStopLevel), len(b), margin)
			} else {
				bs, bReps := InRoundsWith(base.values, base.reps, planned[c.run.CellKey])
				o := stats.OverheadAcrossRounds(bs, bReps, c.values, c.reps, 0.95)
				strict := stats.OverheadAcrossRounds(bs, bReps, c.values, c.reps, stats.CostStopLevel)
				cd.Verdict = stats.DecideToStop(o.Overhead, strict.Overhead, min(len(bs), len(c.values)), margin).WithHalves(o)
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

// PlannedRounds are the measured rounds each cell (by key) is planned
// in, whatever became of its runs: every round, but in an adaptive
// study's focused rounds, which leave decided cells out.
func PlannedRounds(runs []store.Run) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, run := range runs {
		if run.Warmup {
			continue
		}
		if out[run.CellKey] == nil {
			out[run.CellKey] = map[int]bool{}
		}
		out[run.CellKey][run.Rep] = true
	}
	return out
}

// InRounds are the values among vs (measured in rounds reps) of the given
// rounds: a cell is compared with its baseline's runs of the rounds the
// cell is planned in, so that a cell that focused rounds left out is not
// set against the baseline's later runs, which met a later host. It is
// vs itself when every value is of those rounds (always, in a study of
// whole rounds) or when rounds is nil.
func InRounds(vs []float64, reps []int, rounds map[int]bool) []float64 {
	out, _ := InRoundsWith(vs, reps, rounds)
	return out
}

// InRoundsWith is InRounds with the round of each value kept.
func InRoundsWith(vs []float64, reps []int, rounds map[int]bool) ([]float64, []int) {
	if rounds == nil || len(reps) != len(vs) {
		return vs, reps
	}
	var out []float64
	var outReps []int
	for i, r := range reps {
		if rounds[r] {
			out, outReps = append(out, vs[i]), append(outReps, r)
		}
	}
	if len(out) == len(vs) {
		return vs, reps
	}
	return out, outReps
}

// FocusSlack is how far past the rounds left a cell's estimate of
// further rounds may reach and the cell still be measured: the estimate
// rests on a standard deviation from a few runs (from 4 runs, uncertain by
// about 40 %, so the rounds it implies by about a factor of 2), and a
// cell estimated just past the budget is often decided within it.
const FocusSlack = 2

// focus chooses the run cells of an adaptive study's next round: the
// undecided cells that are likely to be decided in the rounds left, each
// with its baseline. fit says how many rounds of a set of run cells the
// budget and the maximum still hold. The most cells are taken for which
// every estimate (stats.Verdict.MoreRounds) is at most FocusSlack times
// the rounds fit leaves for them: dropping the furthest cells makes each
// round shorter and so leaves more rounds for the rest. A cell without
// an estimate (MoreRounds -1: no interval, or its estimate sits on the
// margin) is not chosen: more rounds of the same kind are not shown to
// help it. keep is nil when no cell is within reach; nearest is then the
// run cells of the undecided cell nearest its answer (nil without one),
// to tell a budget spent from cells out of reach.
func (d Decisions) focus(fit func(cells map[string]bool) int) (keep, nearest map[string]bool) {
	var cands []CellDecision
	for _, c := range d.Undecided() {
		if c.Verdict.MoreRounds > 0 && c.Cell != "" {
			cands = append(cands, c)
		}
	}
	slices.SortStableFunc(cands, func(a, b CellDecision) int { return a.Verdict.MoreRounds - b.Verdict.MoreRounds })
	for k := len(cands); k > 0; k-- {
		keys := runCells(cands[:k])
		if left := fit(keys); left > 0 && cands[k-1].Verdict.MoreRounds <= FocusSlack*left {
			return keys, nil
		}
	}
	if len(cands) > 0 {
		return nil, runCells(cands[:1])
	}
	return nil, nil
}

// runCells are the keys of the run cells behind cs: each cell's own and
// its baseline's.
func runCells(cs []CellDecision) map[string]bool {
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
		if c.Verdict.HostChanged {
			names = append(names, fmt.Sprintf("%s (%s)", c.Name(), c.Verdict.HostChangedText()))
			continue
		}
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
