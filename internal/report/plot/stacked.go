package plot

import (
	"fmt"
	"math"
)

// Stacked is a stacked bar chart for metrics that are parts of a whole
// (the phases of one time slice, say): one bar per category, one segment per
// part, and the total above each bar.
type Stacked struct {
	Title  string
	YLabel string
	Bars   []string // categories, e.g. environments
	Parts  []StackPart
	Desc   string
}

// StackPart is one part, with its size in every bar.
type StackPart struct {
	Name   string
	Values []float64 // one per bar; NaN counts as 0
	Tips   []string
}

// SVG renders the chart.
func (s Stacked) SVG() string {
	const height = 340.0
	var c canvas
	c.open("stacked", height, s.Title, s.Desc, fmt.Sprintf(` data-bars="%d" data-segments="%d"`, len(s.Bars), len(s.Bars)*len(s.Parts)))
	c.heading(s.Title)
	names := make([]string, len(s.Parts))
	for i, p := range s.Parts {
		names[i] = p.Name
	}
	top := 30 + c.legend(seriesLegend(names, "box"), 40) + 10 + 14
	left, right := 64.0, float64(Width-12)
	slotW := (right - left) / math.Max(float64(len(s.Bars)), 1)
	bottom := labelsBottom(height, s.Bars, slotW)
	totals := make([]float64, len(s.Bars))
	hi := 0.0
	for b := range s.Bars {
		for _, p := range s.Parts {
			if v := at(p.Values, b); !missing(v) && v > 0 {
				totals[b] += v
			}
		}
		hi = math.Max(hi, totals[b])
	}
	if hi == 0 {
		hi = 1
	}
	lo, hi, ticks := niceRange(0, hi, 6)
	y := scale{lo: lo, hi: hi, p0: bottom, p1: top}
	c.yAxis(y, ticks, tickFormatter(ticks), left, right, s.YLabel)
	barW := math.Min(slotW*0.6, 90)
	for b, name := range s.Bars {
		x := left + slotW*float64(b) + (slotW-barW)/2
		base := 0.0
		for i, p := range s.Parts {
			v := at(p.Values, b)
			if missing(v) || v <= 0 {
				continue
			}
			tip := at(p.Tips, b)
			if tip == "" {
				tip = fmt.Sprintf("%s, %s: %s (%.0f %% of %s)", name, p.Name, FormatValue(v), v/totals[b]*100, FormatValue(totals[b]))
			}
			y0, y1 := y.at(base), y.at(base+v)
			c.raw(`<rect class="segment" data-part="%s" data-bar="%s" x="%s" y="%s" width="%s" height="%s" fill="%s" stroke="#fff" stroke-width="0.8"><title>%s</title></rect>`,
				esc(p.Name), esc(name), num(x), num(y1), num(barW), num(y0-y1), Color(i), esc(tip))
			base += v
		}
		c.text(x+barW/2, y.at(totals[b])-5, "middle", FormatValue(totals[b]), ` class="total"`)
		for k, line := range wrap(name, slotW-4) {
			c.text(x+barW/2, bottom+16+float64(k)*15, "middle", line, ` class="group"`)
		}
	}
	c.line(left, bottom, right, bottom, axisInk, 1, "")
	return c.close()
}
