package report

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/store"
)

// Envs lists the study's environments in spec order, the baseline first,
// and any other its runs name: those without data among them.
func (r *Report) Envs() []string { return r.envs }

// Factors lists the study's factors other than env, sorted.
func (r *Report) Factors() []string { return r.factors }

// Layout is what Build was given from the study's spec.
func (r *Report) Layout() Layout { return r.layout }

// OfCells is a report of cells computed elsewhere, over the environments
// envs (the baseline first): what the gate and the published values read,
// without a stored study.
func OfCells(envs []string, cells []Cell) *Report {
	r := &Report{Schema: Schema, Cells: cells, envs: envs, Failures: []Failure{}, Warnings: []string{}, WarningGroups: []WarningGroup{}}
	r.Decide(0)
	return r
}

// Host is the machine's facts the study recorded.
func (r *Report) Host() hostinfo.Host { return r.host }

// Param is the workload parameter name as c's runs had it: the first run
// of c's workload, environment and row group that has it.
func (r *Report) Param(c *Cell, name string) (string, bool) {
	for _, run := range r.runs {
		if run.Workload == c.Workload && run.Env == c.Env && groupKey(run.CellKey) == c.Group {
			if p, ok := run.Params[name]; ok {
				return fmt.Sprint(p), true
			}
		}
	}
	return "", false
}

// Rounds is the round (block) of each of c's values, parallel to Values.
func (c *Cell) Rounds() []int { return c.reps }

// Samples are every stored sample of the study's runs with its run, warm-up
// and failed runs' too, in the order stored: the tidy data.
func (r *Report) Samples() []RunSample { return r.samples }

// Span is when the study's first run started and its last ended.
func (r *Report) Span() (first, last time.Time) { return r.first, r.last }

// WarningDetails is Warnings with the kind of each.
func (r *Report) WarningDetails() []Warning { return r.warns }

// StoredRuns lists the study's runs by id.
func (r *Report) StoredRuns() []store.Run {
	runs := make([]store.Run, 0, len(r.runs))
	for _, id := range slices.Sorted(maps.Keys(r.runs)) {
		runs = append(runs, r.runs[id])
	}
	return runs
}

// Series is the distribution of every long per-iteration record that
// AddSeries was given, by workload, row group, environment and name.
func (r *Report) Series() map[SeriesKey]*Quantile { return r.series }

// Absolute says the cell is shown as mean (std) in every environment: its
// metric has no overhead against the baseline.
func (c *Cell) Absolute() bool { return c.absolute }

// Ends is a 95 % interval's ends, and whether it has both.
func Ends(ci []*float64) (lo, hi float64, ok bool) { return ends(ci) }

// ShownPapers is what ShowPapers was given: the published tables a page
// shows beside the study's numbers.
func (r *Report) ShownPapers() []PaperComparison { return r.papers }
