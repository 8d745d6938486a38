package page

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

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

// wlData indexes the primary cells of one workload.
type wlData struct {
	name      string
	metrics   []string                // primary metrics, in report order
	secondary []string                // secondary metrics: only as parts or percentiles
	cells     map[string]*report.Cell // by group, metric and env
	groups    []string                // distinct groups (non-env levels), in report order
	levels    map[string]map[string]string
	factors   []string // non-env factors with cells here
}

func (d *wlData) cell(group, metric, env string) *report.Cell {
	return d.cells[group+"\x00"+metric+"\x00"+env]
}

func workloadData(r *report.Report, wl string) *wlData {
	d := &wlData{name: wl, cells: map[string]*report.Cell{}, levels: map[string]map[string]string{}}
	seenM, seenG, seenF := map[string]bool{}, map[string]bool{}, map[string]bool{}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Workload != wl || strings.HasPrefix(c.Metric, "mon.") {
			continue
		}
		// Secondary metrics get no plot of their own but may be parts of a
		// whole or percentiles of a distribution.
		if !seenM[c.Metric] {
			seenM[c.Metric] = true
			if c.Secondary {
				d.secondary = append(d.secondary, c.Metric)
			} else {
				d.metrics = append(d.metrics, c.Metric)
			}
		}
		if !seenG[c.Group] {
			seenG[c.Group] = true
			d.groups = append(d.groups, c.Group)
			lv := map[string]string{}
			for k, v := range c.Levels {
				if k != "env" {
					lv[k] = v
					seenF[k] = true
				}
			}
			d.levels[c.Group] = lv
		}
		d.cells[c.Group+"\x00"+c.Metric+"\x00"+c.Env] = c
	}
	for _, f := range r.Factors() {
		if seenF[f] {
			d.factors = append(d.factors, f)
		}
	}
	return d
}

// anyCell returns some cell of the metric, for its label and unit.
func (d *wlData) anyCell(metric string, envs []string) *report.Cell {
	for _, g := range d.groups {
		for _, e := range envs {
			if c := d.cell(g, metric, e); c != nil {
				return c
			}
		}
	}
	return nil
}

// suffix names a group's levels, e.g. " · threads=2".
func (d *wlData) suffix(group string, skip string) string {
	var parts []string
	for _, f := range d.factors {
		if v, ok := d.levels[group][f]; ok && f != skip {
			parts = append(parts, f+"="+v)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return " · " + strings.Join(parts, " ")
}

// sweptFactor is the first factor whose levels are all numbers, at least two.
func (d *wlData) sweptFactor() string {
	for _, f := range d.factors {
		seen := map[string]bool{}
		numeric := true
		for _, g := range d.groups {
			v, ok := d.levels[g][f]
			if !ok {
				continue
			}
			if _, err := strconv.ParseFloat(v, 64); err != nil {
				numeric = false
			}
			seen[v] = true
		}
		if numeric && len(seen) >= 2 {
			return f
		}
	}
	return ""
}

func workloadFigures(r *report.Report, wl string) []report.Figure {
	d := workloadData(r, wl)
	used := map[string]bool{}
	var figs []report.Figure
	figs = append(figs, partsFigures(r, d, used)...)
	figs = append(figs, percentileFigures(r, d, used)...)
	figs = append(figs, seriesFigures(r, d)...)
	var rest []string
	for _, m := range d.metrics {
		if !used[m] {
			rest = append(rest, m)
		}
	}
	if swept := d.sweptFactor(); swept != "" {
		figs = append(figs, lineFigures(r, d, rest, swept)...)
	} else {
		figs = append(figs, barFigures(r, d, rest)...)
	}
	figs = append(figs, boxFigures(r, d, rest)...)
	return figs
}

// shortLabel drops the unit from a metric's label when the axis says it:
// "copy MB/s" on an MB/s axis is "copy".
func shortLabel(c *report.Cell) string {
	if s := strings.TrimSpace(strings.TrimSuffix(c.Label, c.Unit)); s != "" && s != c.Label {
		return s
	}
	return c.Label
}

// direction is the caption's word on which way is better.
func direction(cells []*report.Cell) string {
	hi, lo := 0, 0
	for _, c := range cells {
		if c.HigherIsBetter {
			hi++
		} else {
			lo++
		}
	}
	switch {
	case lo == 0 && hi > 0:
		return " Higher is better."
	case hi == 0 && lo > 0:
		return " Lower is better."
	}
	return ""
}

// runsText says how many runs a chart's marks stand for.
func runsText(cells []*report.Cell) string {
	lo, hi := math.MaxInt, 0
	for _, c := range cells {
		lo, hi = min(lo, c.N), max(hi, c.N)
	}
	switch {
	case hi == 0:
		return "no measured runs"
	case lo == hi:
		return fmt.Sprintf("%d measured runs", lo)
	}
	return fmt.Sprintf("%d to %d measured runs", lo, hi)
}

// category is one x position of a bar or box chart: a metric in a group.
type category struct {
	label, group, metric string
}

// labels are the categories' labels, the groups of a bar or box chart.
func labels(cats []category) []string {
	var out []string
	for _, cat := range cats {
		out = append(out, cat.label)
	}
	return out
}

// measured lists env's cells in the order of cats: nil where env has no
// runs.
func (d *wlData) measured(cats []category, env string) []*report.Cell {
	out := make([]*report.Cell, len(cats))
	for k, cat := range cats {
		if c := d.cell(cat.group, cat.metric, env); c != nil && c.N > 0 {
			out[k] = c
		}
	}
	return out
}

// categories lists metric x group positions for metrics of one unit.
func (d *wlData) categories(metrics []string, envs []string) []category {
	var out []category
	for _, m := range metrics {
		for _, g := range d.groups {
			found := false
			for _, e := range envs {
				if d.cell(g, m, e) != nil {
					found = true
				}
			}
			if !found {
				continue
			}
			c := d.anyCell(m, envs)
			out = append(out, category{label: shortLabel(c) + d.suffix(g, ""), group: g, metric: m})
		}
	}
	return out
}

// byUnit splits metrics by unit, keeping their order.
func (d *wlData) byUnit(metrics, envs []string) (units []string, of map[string][]string) {
	of = map[string][]string{}
	for _, m := range metrics {
		c := d.anyCell(m, envs)
		if c == nil {
			continue
		}
		if _, ok := of[c.Unit]; !ok {
			units = append(units, c.Unit)
		}
		of[c.Unit] = append(of[c.Unit], m)
	}
	return units, of
}

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
