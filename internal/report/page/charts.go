package page

import (
	"fmt"
	"math"
	"sort"
	"strconv"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/plot"
)

// barFigures draws grouped bars of the metrics per environment, one chart
// per unit.
func barFigures(r *report.Report, d *wlData, metrics []string) []report.Figure {
	var figs []report.Figure
	units, of := d.byUnit(metrics, r.Envs())
	for _, u := range units {
		cats := d.categories(of[u], r.Envs())
		title := d.name + " · " + u
		if len(of[u]) == 1 {
			title = d.name + " · " + d.anyCell(of[u][0], r.Envs()).Label
		}
		ch := plot.Bars{Title: title, YLabel: u, Groups: labels(cats)}
		var all []*report.Cell
		for _, e := range r.Envs() {
			s := plot.BarSeries{Name: e, Color: envColor(r, e)}
			for k, c := range d.measured(cats, e) {
				if c == nil {
					s.Values, s.Errs, s.Points, s.Tips = append(s.Values, math.NaN()), append(s.Errs, math.NaN()), append(s.Points, nil), append(s.Tips, "")
					continue
				}
				all = append(all, c)
				tip := fmt.Sprintf("%s, %s: mean %s, std %s (n=%d)", e, cats[k].label, report.FmtValue(c.Mean), report.FmtValue(c.Std), c.N)
				if !c.IsBaseline && !c.Absolute() {
					tip += "; vs " + r.Study.Baseline + ": " + report.OverheadText(c)
				}
				s.Values, s.Errs, s.Points, s.Tips = append(s.Values, c.Mean), append(s.Errs, c.Std), append(s.Points, c.Values), append(s.Tips, tip)
			}
			ch.Series = append(ch.Series, s)
		}
		ch.Desc = "Bars: means; whiskers: ±1 standard deviation; dots: individual runs."
		figs = append(figs, report.Figure{ID: report.Slug(d.name, u), Workload: d.name, Kind: "bars", Title: title, SVG: ch.SVG(),
			Caption: fmt.Sprintf("Each bar is the mean of %s; the whisker spans ±1 standard deviation and the dots are the runs themselves.%s",
				runsText(all), direction(all))})
	}
	return figs
}

// boxFigures draws the spread of the runs as quartile boxes, a detail.
func boxFigures(r *report.Report, d *wlData, metrics []string) []report.Figure {
	var figs []report.Figure
	units, of := d.byUnit(metrics, r.Envs())
	for _, u := range units {
		cats := d.categories(of[u], r.Envs())
		ch := plot.Boxes{Title: d.name + " · spread of the runs, " + u, YLabel: u, Groups: labels(cats)}
		enough := false
		for _, e := range r.Envs() {
			s := plot.BoxSeries{Name: e, Color: envColor(r, e)}
			for _, c := range d.measured(cats, e) {
				if c == nil {
					s.Boxes = append(s.Boxes, plot.Box{})
					continue
				}
				enough = enough || c.N >= 2
				s.Boxes = append(s.Boxes, plot.Box{N: c.N, Min: c.Min, Q1: c.Q1, Median: c.Median, Q3: c.Q3, Max: c.Max, Points: c.Values})
			}
			ch.Series = append(ch.Series, s)
		}
		if !enough {
			continue
		}
		ch.Desc = "Thick line: median; box: first to third quartile; whiskers: smallest to largest run; dots: the runs."
		figs = append(figs, report.Figure{ID: report.Slug(d.name, u, "runs"), Workload: d.name, Kind: "boxes", Title: ch.Title, SVG: ch.SVG(), Detail: true,
			Caption: "Median (thick line), first to third quartile (box), smallest and largest run (whiskers) and every run (dots). The axis does not start at zero."})
	}
	return figs
}

// lineFigures draws the metrics against the swept numeric factor, a line
// per environment.
func lineFigures(r *report.Report, d *wlData, metrics []string, swept string) []report.Figure {
	var figs []report.Figure
	// Panels: one per metric and combination of the other factors' levels.
	type panel struct{ metric, others string }
	var panels []panel
	seen := map[panel]bool{}
	for _, m := range metrics {
		for _, g := range d.groups {
			p := panel{m, d.suffix(g, swept)}
			if !seen[p] {
				seen[p] = true
				panels = append(panels, p)
			}
		}
	}
	for _, p := range panels {
		c0 := d.anyCell(p.metric, r.Envs())
		if c0 == nil {
			continue
		}
		title := fmt.Sprintf("%s · %s by %s%s", d.name, c0.Label, swept, p.others)
		ch := plot.Lines{Title: title, XLabel: swept, YLabel: c0.Unit}
		var all []*report.Cell
		for _, e := range r.Envs() {
			s := plot.LineSeries{Name: e, Color: envColor(r, e)}
			type pt struct {
				x float64
				c *report.Cell
			}
			var pts []pt
			for _, g := range d.groups {
				if d.suffix(g, swept) != p.others {
					continue
				}
				c := d.cell(g, p.metric, e)
				if c == nil || c.N == 0 {
					continue
				}
				x, err := strconv.ParseFloat(d.levels[g][swept], 64)
				if err != nil {
					continue
				}
				pts = append(pts, pt{x, c})
			}
			sort.Slice(pts, func(i, j int) bool { return pts[i].x < pts[j].x })
			for _, q := range pts {
				all = append(all, q.c)
				s.X, s.Y, s.Err = append(s.X, q.x), append(s.Y, q.c.Mean), append(s.Err, q.c.Std)
				tip := fmt.Sprintf("%s, %s=%s: mean %s, std %s (n=%d)", e, swept, plot.FormatValue(q.x), report.FmtValue(q.c.Mean), report.FmtValue(q.c.Std), q.c.N)
				if !q.c.IsBaseline && !q.c.Absolute() {
					tip += "; vs " + r.Study.Baseline + ": " + report.OverheadText(q.c)
				}
				s.Tips = append(s.Tips, tip)
			}
			ch.Series = append(ch.Series, s)
		}
		ch.Desc = "Points: means at each level; whiskers: ±1 standard deviation."
		figs = append(figs, report.Figure{ID: report.Slug(d.name, p.metric, "by", swept, p.others), Workload: d.name, Kind: "lines", Title: title, SVG: ch.SVG(),
			Caption: fmt.Sprintf("Mean at each level of %s over %s, whiskers ±1 standard deviation; the lines are nudged sideways so that whiskers do not hide each other.%s",
				swept, runsText(all), direction(all))})
	}
	return figs
}
