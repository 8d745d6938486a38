package page

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
)

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

// workloadData indexes the cells of workload wl.
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

// workloadFigures is the plots workload wl's data calls for (see Figures).
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
