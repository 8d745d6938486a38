package report

import (
	"math"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// SeriesKey names the distribution of one series in one cell.
type SeriesKey struct {
	Workload, Group, Env, Name string
}

// Quantile summarises the series of one cell: the quantiles at quantileProbs
// of every measured run, averaged over runs (Vincentization), so that
// millions of time slices cost a few kilobytes and one long run cannot
// outweigh the others.
type Quantile struct {
	Unit string
	Runs int
	sum  []float64 // per probability, summed over runs
}

// quantileProbs are the probabilities at which a series' distribution is
// kept: every half percent, and the tail up to the largest value.
var quantileProbs = func() []float64 {
	var p []float64
	for i := 0; i <= 199; i++ {
		p = append(p, float64(i)/200)
	}
	return append(p, 0.995, 0.999, 0.9999, 1)
}()

// AddSeries adds a run's long per-iteration record (e.g. the latency of
// every time slice) to the report, which plots its distribution. Series of
// warm-up, failed and unknown runs are ignored, as are non-finite values and
// the host monitors' series (mon.*), which describe the host, not the work.
func (r *Report) AddSeries(s store.Series) {
	run, ok := r.runs[s.RunID]
	if !ok || run.Warmup || run.Status != store.RunOK || strings.HasPrefix(s.Name, "mon.") {
		return
	}
	vals := make([]float64, 0, len(s.Values))
	for _, v := range s.Values {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return
	}
	slices.Sort(vals)
	if r.series == nil {
		r.series = map[SeriesKey]*Quantile{}
	}
	k := SeriesKey{run.Workload, groupKey(run.CellKey), run.Env, s.Name}
	q, ok := r.series[k]
	if !ok {
		q = &Quantile{Unit: s.Unit, sum: make([]float64, len(quantileProbs))}
		r.series[k] = q
	}
	q.Runs++
	for i, p := range quantileProbs {
		q.sum[i] += stats.Quantile(vals, p)
	}
}

// Points returns the averaged quantiles and their probabilities.
func (q *Quantile) Points() (x, p []float64) {
	x = make([]float64, len(q.sum))
	for i, s := range q.sum {
		x[i] = s / float64(q.Runs)
	}
	return x, quantileProbs
}
