package plot

import (
	"fmt"
	"math"
)

// Boxes is a grouped box plot: for every group (a metric) and series (an
// environment) the median, the quartiles as a box, the extremes as whiskers
// and every value as a dot.
type Boxes struct {
	Title  string
	YLabel string
	Groups []string
	Series []BoxSeries
	Desc   string
}

// BoxSeries is one series of boxes, one per group.
type BoxSeries struct {
	Name  string
	Color string // empty: the palette's colour for the series' position
	Boxes []Box
}

// Box is the five-number summary of one sample, with its values.
type Box struct {
	N                        int
	Min, Q1, Median, Q3, Max float64
	Points                   []float64
}

// SVG renders the chart. Unlike bars, the axis does not start at zero: boxes
// show spread, which a zero-based axis would flatten.
func (b Boxes) SVG() string {
	const height = 340.0
	var c canvas
	count := 0
	for _, s := range b.Series {
		for _, bx := range s.Boxes {
			if bx.N > 0 {
				count++
			}
		}
	}
	top := c.begin("boxes", height, b.Title, b.Desc, fmt.Sprintf(` data-boxes="%d"`, count), legendOf(b.Series, "box"))
	left, right := 64.0, float64(Width-12)
	groupW := (right - left) / math.Max(float64(len(b.Groups)), 1)
	bottom := labelsBottom(height, b.Groups, groupW)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range b.Series {
		for _, bx := range s.Boxes {
			if bx.N > 0 {
				lo, hi = math.Min(lo, bx.Min), math.Max(hi, bx.Max)
			}
		}
	}
	if math.IsInf(lo, 0) {
		lo, hi = 0, 1
	}
	pad := (hi - lo) * 0.05
	lo, hi, ticks := niceRange(lo-pad, hi+pad, 6)
	y := scale{lo: lo, hi: hi, p0: bottom, p1: top}
	c.yAxis(y, ticks, tickFormatter(ticks), left, right, b.YLabel)
	c.line(left, bottom, right, bottom, axisInk, 1, "")
	n := math.Max(float64(len(b.Series)), 1)
	slot := math.Min(groupW*0.84/n, 64)
	boxW := slot * 0.7
	for g, name := range b.Groups {
		gx := left + groupW*float64(g)
		start := gx + (groupW-slot*n)/2
		for i, s := range b.Series {
			if g >= len(s.Boxes) || s.Boxes[g].N == 0 {
				continue
			}
			bx := s.Boxes[g]
			cx := start + slot*float64(i) + slot/2
			tip := fmt.Sprintf("%s, %s (n=%d): median %s, quartiles %s to %s, range %s to %s", s.Name, name, bx.N,
				FormatValue(bx.Median), FormatValue(bx.Q1), FormatValue(bx.Q3), FormatValue(bx.Min), FormatValue(bx.Max))
			c.raw(`<g class="box" data-series="%s" data-group="%s"><title>%s</title>`, esc(s.Name), esc(name), esc(tip))
			c.line(cx, y.at(bx.Min), cx, y.at(bx.Q1), ink, 1.2, "")
			c.line(cx, y.at(bx.Q3), cx, y.at(bx.Max), ink, 1.2, "")
			c.line(cx-boxW/4, y.at(bx.Min), cx+boxW/4, y.at(bx.Min), ink, 1.2, "")
			c.line(cx-boxW/4, y.at(bx.Max), cx+boxW/4, y.at(bx.Max), ink, 1.2, "")
			h := math.Max(y.at(bx.Q1)-y.at(bx.Q3), 1)
			c.raw(`<rect x="%s" y="%s" width="%s" height="%s" fill="%s" fill-opacity="0.35" stroke="%s" stroke-width="1.5"/>`,
				num(cx-boxW/2), num(y.at(bx.Q3)), num(boxW), num(h), pick(s.Color, i), pick(s.Color, i))
			c.line(cx-boxW/2, y.at(bx.Median), cx+boxW/2, y.at(bx.Median), ink, 2.5, ` class="median"`)
			c.raw(`</g>`)
			c.dots(cx, boxW, bx.Points, y)
		}
		for k, line := range wrap(name, groupW-4) {
			c.text(gx+groupW/2, bottom+16+float64(k)*15, "middle", line, ` class="group"`)
		}
	}
	return c.close()
}
