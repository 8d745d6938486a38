package page

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/plot"
)

// partsFigures draws metrics declared as parts of a whole as stacked bars.
func partsFigures(r *report.Report, d *wlData, used map[string]bool) []report.Figure {
	var figs []report.Figure
	for _, wp := range partsOf(d.name) {
		var parts []string
		for _, m := range wp.metrics {
			if d.anyCell(m, r.Envs()) != nil {
				parts = append(parts, m)
			}
		}
		if len(parts) < 2 {
			continue
		}
		for _, m := range parts {
			used[m] = true
		}
		unit := d.anyCell(parts[0], r.Envs()).Unit
		for _, g := range d.groups {
			title := fmt.Sprintf("%s · %s%s", d.name, wp.whole, d.suffix(g, ""))
			ch := plot.Stacked{Title: title, YLabel: unit}
			var envs []string
			for _, e := range r.Envs() {
				for _, m := range parts {
					if c := d.cell(g, m, e); c != nil && c.N > 0 {
						envs = append(envs, e)
						break
					}
				}
			}
			ch.Bars = envs
			var all []*report.Cell
			for _, m := range parts {
				sp := plot.StackPart{Name: shortLabel(d.anyCell(m, r.Envs()))}
				for _, e := range envs {
					c := d.cell(g, m, e)
					if c == nil || c.N == 0 {
						sp.Values, sp.Tips = append(sp.Values, math.NaN()), append(sp.Tips, "")
						continue
					}
					all = append(all, c)
					sp.Values = append(sp.Values, c.Mean)
					sp.Tips = append(sp.Tips, fmt.Sprintf("%s, %s: mean %s %s, std %s (n=%d)", e, c.Label, report.FmtValue(c.Mean), c.Unit, report.FmtValue(c.Std), c.N))
				}
				ch.Parts = append(ch.Parts, sp)
			}
			ch.Desc = "Stacked segments: the mean of each part; the number on top is their sum."
			figs = append(figs, report.Figure{ID: report.Slug(d.name, wp.whole, d.suffix(g, "")), Workload: d.name, Kind: "stacked", Title: title, SVG: ch.SVG(),
				Caption: fmt.Sprintf("Each segment is the mean of one part of %s over %s; the number on top is the whole.", wp.whole, runsText(all))})
		}
	}
	return figs
}

// percentileFigures draws the percentile metrics as a cumulative
// distribution.
func percentileFigures(r *report.Report, d *wlData, used map[string]bool) []report.Figure {
	type point struct {
		metric string
		pct    float64
	}
	var families []string
	of := map[string][]point{}
	for _, m := range append(append([]string{}, d.metrics...), d.secondary...) {
		if fam, pct, ok := percentileOf(m); ok {
			if _, seen := of[fam]; !seen {
				families = append(families, fam)
			}
			of[fam] = append(of[fam], point{m, pct})
		}
	}
	var figs []report.Figure
	for _, fam := range families {
		pts := of[fam]
		inner := 0
		for _, p := range pts {
			if p.pct > 0 && p.pct < 100 {
				inner++
			}
		}
		if len(pts) < 2 || inner == 0 {
			continue
		}
		sort.SliceStable(pts, func(i, j int) bool { return pts[i].pct < pts[j].pct })
		c0 := d.anyCell(pts[0].metric, r.Envs())
		unit := c0.Unit
		if label := distributionLabel(c0); label != "" {
			fam = label
		}
		for _, p := range pts {
			used[p.metric] = true
		}
		for _, g := range d.groups {
			title := fmt.Sprintf("%s · %s distribution%s", d.name, fam, d.suffix(g, ""))
			ch := plot.CDF{Title: title, XLabel: fam + " (" + unit + ")", Markers: true}
			var all []*report.Cell
			for _, e := range r.Envs() {
				s := plot.CDFSeries{Name: e, Color: envColor(r, e)}
				for _, p := range pts {
					if c := d.cell(g, p.metric, e); c != nil && c.N > 0 {
						all = append(all, c)
						s.X, s.P = append(s.X, c.Mean), append(s.P, p.pct/100)
					}
				}
				ch.Series = append(ch.Series, s)
			}
			ch.Desc = "Points: the percentiles the workload reported, averaged over runs."
			figs = append(figs, report.Figure{ID: report.Slug(d.name, fam, "percentiles", d.suffix(g, "")), Workload: d.name, Kind: "cdf", Title: title, SVG: ch.SVG(),
				Caption: fmt.Sprintf("The percentiles the workload reported (mean over %s), as a cumulative distribution: read across at 50 %% for the median, at 99 %% for the tail.", runsText(all))})
		}
	}
	return figs
}

// seriesFigures draws the distribution of each long series AddSeries kept.
func seriesFigures(r *report.Report, d *wlData) []report.Figure {
	type panel struct{ name, group string }
	var panels []panel
	seen := map[panel]bool{}
	for k := range r.Series() {
		if k.Workload == d.name && !seen[panel{k.Name, k.Group}] {
			seen[panel{k.Name, k.Group}] = true
			panels = append(panels, panel{k.Name, k.Group})
		}
	}
	sort.Slice(panels, func(i, j int) bool {
		if panels[i].name != panels[j].name {
			return panels[i].name < panels[j].name
		}
		return report.NaturalLess(panels[i].group, panels[j].group)
	})
	var figs []report.Figure
	for _, p := range panels {
		suffix := ""
		if lv := d.levels[p.group]; lv != nil {
			suffix = d.suffix(p.group, "")
		}
		var unit string
		for _, e := range r.Envs() {
			if q, ok := r.Series()[report.SeriesKey{Workload: d.name, Group: p.group, Env: e, Name: p.name}]; ok {
				unit = q.Unit
			}
		}
		name := strings.TrimSuffix(p.name, "_"+unit)
		title := fmt.Sprintf("%s · %s distribution%s", d.name, name, suffix)
		ch := plot.CDF{Title: title, XLabel: name + " (" + unit + ")"}
		runs := 0
		for _, e := range r.Envs() {
			s := plot.CDFSeries{Name: e, Color: envColor(r, e)}
			if q, ok := r.Series()[report.SeriesKey{Workload: d.name, Group: p.group, Env: e, Name: p.name}]; ok {
				s.X, s.P = q.Points()
				runs += q.Runs
			}
			ch.Series = append(ch.Series, s)
		}
		ch.Desc = "Lines: the share of values at or below x, quantiles averaged over runs."
		figs = append(figs, report.Figure{ID: report.Slug(d.name, p.name, "cdf", suffix), Workload: d.name, Kind: "cdf", Title: title, SVG: ch.SVG(), Detail: !isLatency(p.name),
			Caption: fmt.Sprintf("Cumulative distribution of every recorded %s value: the share of values at or below x. Each run's quantiles are averaged over the runs of an environment (%d runs in all), so one long run cannot outweigh the others.", p.name, runs)})
	}
	return figs
}

// isLatency tells a latency-like series (wake-up latency, round-trip time),
// whose distribution is the point of the workload, from the other records
// of a run, whose distributions are details.
func isLatency(name string) bool {
	for _, w := range []string{"latency", "rtt", "response", "jitter"} {
		if strings.Contains(strings.ToLower(name), w) {
			return true
		}
	}
	return false
}

// distributionLabel names the distribution a percentile metric belongs to by
// its label without the percentile and the unit: "wake p99 us" is "wake".
func distributionLabel(c *report.Cell) string {
	var keep []string
	for _, w := range strings.Fields(c.Label) {
		lw := strings.ToLower(w)
		if w == c.Unit || lw == "median" || lw == "min" || lw == "max" || (len(lw) > 1 && lw[0] == 'p' && strings.Trim(lw[1:], "0123456789.") == "") {
			continue
		}
		keep = append(keep, w)
	}
	return strings.Join(keep, " ")
}
