package study

import (
	"cmp"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

// Precision is how precise an adaptive study's overheads are, read from
// its stored samples: whether every primary metric's overhead against the
// baseline has a 95 % interval (stats.OverheadAcrossRounds, as the report computes it)
// whose wider side is within the target, and a line saying how far it
// got; the report's header says the same. It was the stopping rule until
// issue 28; the study now stops on DecisionsOf (a cost shown, or no
// difference beyond ±target), which a wide interval can satisfy.
type Precision struct {
	Reached bool
	Summary string
}

// precisionCell is the values of one metric in one cell.
type precisionCell struct {
	run     store.Run // the first run of the cell: its workload, env and levels
	label   string    // the metric's label
	primary bool      // judged by the target: not secondary, not a host monitor
	values  []float64
	reps    []int // the round of each value
}

type precisionKey struct{ cell, metric string }

// PrecisionOf applies spec's adaptive target to the measured runs and their
// samples (each run's figure, instance 0). Without a target, or without a
// cell to judge, it is not reached.
func PrecisionOf(spec *Spec, runs []store.Run, samples []store.Sample) Precision {
	if spec.Adaptive == nil || spec.Adaptive.PrecisionPct <= 0 {
		return Precision{}
	}
	target := spec.Adaptive.PrecisionPct
	cells := precisionCells(runs, samples)
	judged := spec.judgedCells(cells, runs)
	factors := levelNames(runs)
	var missed []string
	for _, k := range judged {
		c := cells[k]
		hw := math.Inf(1)
		if base, ok := spec.baselineOf(cells, k); ok {
			hw = halfWidth(stats.OverheadAcrossRounds(base.values, base.reps, c.values, c.reps, 0.95).Overhead) // the report's interval
		}
		if hw <= target {
			continue
		}
		missed = append(missed, MissedCell(rowOf(c.run, factors), c.label, c.run.Env, hw))
	}
	return Precision{Reached: len(judged) > 0 && len(missed) == 0, Summary: PrecisionLine(len(judged)-len(missed), len(judged), target, missed)}
}

// MissedCell names a cell whose overhead's interval is still wider than
// the target, with its half-width: "cpu.prime events/s @ docker-bridge
// (±3.2%)", or "no interval" when none could be computed (hw +Inf).
func MissedCell(row, label, env string, hw float64) string {
	w := "no interval"
	switch {
	case math.IsInf(hw, 1):
	case hw >= 10:
		w = fmt.Sprintf("±%.0f%%", hw)
	default:
		w = fmt.Sprintf("±%.2g%%", hw)
	}
	return fmt.Sprintf("%s %s @ %s (%s)", row, label, env, w)
}

// PrecisionLine sums up the precision of a study's overheads in one line:
// how many of the cells reached the target, and the first five that did
// not (MissedCell), as the adaptive rule logs it and reports print it.
func PrecisionLine(reached, cells int, targetPct float64, missed []string) string {
	s := fmt.Sprintf("%d of %d cells have their overhead's 95%% interval within ±%g%%", reached, cells, targetPct)
	if len(missed) > 0 {
		const show = 5
		more := ""
		if len(missed) > show {
			more = fmt.Sprintf(" and %d more", len(missed)-show)
		}
		s += "; not yet: " + strings.Join(missed[:min(show, len(missed))], ", ") + more
	}
	return s
}

// sortJudged orders judged cells as the spec lists workloads, then rows,
// environments and metrics.
func (s *Spec) sortJudged(judged []precisionKey, cells map[precisionKey]*precisionCell, factors []string) {
	slices.SortFunc(judged, func(a, b precisionKey) int {
		ra, rb := cells[a].run, cells[b].run
		return cmp.Or(cmp.Compare(s.workloadIndex(ra.Workload), s.workloadIndex(rb.Workload)),
			cmp.Compare(rowOf(ra, factors), rowOf(rb, factors)), cmp.Compare(s.envIndex(ra.Env), s.envIndex(rb.Env)),
			cmp.Compare(a.metric, b.metric))
	})
}

// precisionCells gathers the measured values of every cell and metric.
func precisionCells(runs []store.Run, samples []store.Sample) map[precisionKey]*precisionCell {
	byID := map[int64]store.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	cells := map[precisionKey]*precisionCell{}
	for _, smp := range samples {
		run, ok := byID[smp.RunID]
		if !ok || run.Warmup || run.Status != store.RunOK || smp.Instance != 0 {
			continue
		}
		k := precisionKey{run.CellKey, smp.Metric}
		c := cells[k]
		if c == nil {
			c = &precisionCell{run: run, label: smp.Metric, primary: !strings.HasPrefix(smp.Metric, "mon.")}
			if m, ok := workload.MetricOf(run.Workload, workload.Params(run.Params), smp.Metric); ok {
				c.label, c.primary = m.Label, c.primary && !m.Secondary
			}
			cells[k] = c
		}
		c.values = append(c.values, smp.Value)
		c.reps = append(c.reps, run.Rep)
	}
	return cells
}

// baselineOf is the cell of the baseline environment that the cell and
// metric k are compared with, if it was measured.
func (s *Spec) baselineOf(cells map[precisionKey]*precisionCell, k precisionKey) (*precisionCell, bool) {
	c := cells[k]
	levels := maps.Clone(c.run.Levels)
	levels["env"] = s.Baseline
	base, ok := cells[precisionKey{Cell{Workload: c.run.Workload, Levels: levels}.Key(), k.metric}]
	return base, ok
}

// halfWidth is how far an overhead's interval reaches from its estimate on
// the wider side, in percentage points; +Inf without a finite interval.
func halfWidth(o stats.OverheadResult) float64 {
	hw := math.Max(o.HiPct-o.Pct, o.Pct-o.LoPct)
	if math.IsNaN(hw) || math.IsInf(hw, 0) {
		return math.Inf(1)
	}
	return hw
}

// levelNames are the factors the runs vary besides the environment.
func levelNames(runs []store.Run) []string {
	set := map[string]bool{}
	for _, r := range runs {
		for k := range r.Levels {
			if k != "env" {
				set[k] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// rowOf names a run's row: its workload and its factors' levels.
func rowOf(r store.Run, factors []string) string { return RowName(r.Workload, r.Levels, factors) }

// RowName is the row of a cell in the tables and the run's lines: its
// workload and its levels of factors, as "cpu.prime threads=2".
func RowName(workload string, levels map[string]string, factors []string) string {
	parts := []string{workload}
	for _, f := range factors {
		if v, ok := levels[f]; ok {
			parts = append(parts, f+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// workloadIndex and envIndex order cells as the spec lists them.
func (s *Spec) workloadIndex(name string) int {
	return slices.IndexFunc(s.Workloads, func(w WorkloadSpec) bool { return w.Name == name })
}

func (s *Spec) envIndex(name string) int {
	return slices.IndexFunc(s.Envs, func(e Named) bool { return e.Name == name })
}
