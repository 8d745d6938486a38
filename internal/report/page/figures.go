package page

import (
	"fmt"
	"math"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/plot"
)

// Figures returns the plots of the report in reading order: the overhead of
// every environment at a glance, then for every workload the plot its data
// calls for.
//
//   - metrics declared as parts of a whole (PartsDeclarer): stacked bars
//   - percentile metrics (p50, p99, ...) and long series: distributions
//   - a factor with numeric levels (threads, clients): lines against it
//   - otherwise: grouped bars per environment, one chart per unit
//
// and, as a detail, the spread of the runs as quartile boxes.
func Figures(r *report.Report) []report.Figure {
	var figs []report.Figure
	if f, ok := overheadFigure(r); ok {
		figs = append(figs, f)
	}
	for _, wl := range workloadNames(r) {
		figs = append(figs, workloadFigures(r, wl)...)
	}
	seen := map[string]int{}
	for i := range figs {
		id := figs[i].ID
		if n := seen[id]; n > 0 {
			figs[i].ID = fmt.Sprintf("%s-%d", id, n+1)
		}
		seen[id]++
	}
	return figs
}

// envColor is an environment's colour in every plot.
func envColor(r *report.Report, env string) string {
	for i, e := range r.Envs() {
		if e == env {
			return plot.Color(i)
		}
	}
	return plot.Color(len(r.Envs()))
}

// workloadNames lists the workloads with cells, in report order.
func workloadNames(r *report.Report) []string {
	var out []string
	seen := map[string]bool{}
	for _, c := range r.Cells {
		if !seen[c.Workload] {
			seen[c.Workload] = true
			out = append(out, c.Workload)
		}
	}
	return out
}

// overheadFigure plots every deviation from the baseline with its interval.
func overheadFigure(r *report.Report) (report.Figure, bool) {
	var others []string
	for _, e := range r.Envs() {
		if e != r.Study.Baseline {
			others = append(others, e)
		}
	}
	ch := plot.Intervals{Title: "Deviation from " + r.Study.Baseline + " (95 % CI)",
		XLabel: "% deviation from the " + r.Study.Baseline + " mean"}
	for _, e := range others {
		ch.Series = append(ch.Series, plot.IntervalSeries{Name: e, Color: envColor(r, e)})
	}
	for _, row := range r.Rows() {
		any := false
		for _, e := range others {
			if c := row.Cells[e]; c != nil && c.OverheadPct != nil && !c.Absolute() {
				any = true
			}
		}
		if !any {
			continue
		}
		label := row.Name + " " + row.Metric
		arrow := " ↓"
		for _, c := range row.Cells {
			if c.HigherIsBetter {
				arrow = " ↑"
			}
		}
		ch.Rows = append(ch.Rows, label+arrow)
		for i, e := range others {
			s := &ch.Series[i]
			c := row.Cells[e]
			est, lo, hi, tip := math.NaN(), math.NaN(), math.NaN(), ""
			strong := false
			if c != nil && c.OverheadPct != nil && !c.Absolute() {
				est = *c.OverheadPct
				if l, h, ok := report.Ends(c.OverheadCI95); ok {
					lo, hi = l, h
				}
				strong = c.Significant
				tip = fmt.Sprintf("%s, %s: %s", e, label, report.OverheadText(c))
			}
			s.Est, s.Lo, s.Hi = append(s.Est, est), append(s.Lo, lo), append(s.Hi, hi)
			s.Strong, s.Tips = append(s.Strong, strong), append(s.Tips, tip)
		}
	}
	if len(ch.Rows) == 0 || len(others) == 0 {
		return report.Figure{}, false
	}
	ch.Desc = "Dots: deviation of the mean from the " + r.Study.Baseline + " mean; lines: its 95 % confidence interval."
	return report.Figure{ID: "overhead", Kind: "intervals", Title: ch.Title, SVG: ch.SVG(),
		Caption: fmt.Sprintf("Each dot is an environment's mean as %% deviation from the %s mean; the line is its 95 %% confidence interval (Fieller). "+
			"A filled dot's interval excludes 0: the difference is beyond the noise of the runs. ↑ marks metrics where higher is better, ↓ where lower is better. "+
			"Intervals cut at the edge end in an arrow.", r.Study.Baseline)}, true
}
