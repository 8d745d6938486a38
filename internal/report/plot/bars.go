package plot

import (
	"fmt"
	"math"
)

// Bars is a grouped bar chart: one group per category (say, a metric), one
// bar per series (say, an environment) in every group, a whisker of ±Err
// around each bar's top, and the individual values as dots.
type Bars struct {
	Title  string
	YLabel string // the quantity and its unit, e.g. "MB/s"
	Groups []string
	Series []BarSeries
	Desc   string // what the marks mean, for the accessible description
}

// BarSeries is one series of bars, with one entry per group.
type BarSeries struct {
	Name   string
	Color  string      // empty: the palette's colour for the series' position
	Values []float64   // bar heights; NaN: no bar in that group
	Errs   []float64   // half-length of the whisker; nil or NaN: none
	Points [][]float64 // individual values per group, drawn as dots; nil: none
	Tips   []string    // hover text per group; empty: name, group and value
}

// SVG renders the chart.
func (b Bars) SVG() string {
	const height = 340.0
	var c canvas
	top := c.begin("bars", height, b.Title, b.Desc, fmt.Sprintf(` data-bars="%d"`, b.count()), legendOf(b.Series, "box"))
	groupW := (Width - 64 - 12) / math.Max(float64(len(b.Groups)), 1)
	left, right, bottom := 64.0, float64(Width-12), labelsBottom(height, b.Groups, groupW)
	lo, hi := 0.0, 0.0
	for _, s := range b.Series {
		for g := range b.Groups {
			v := at(s.Values, g)
			if missing(v) {
				continue
			}
			e := at(s.Errs, g)
			if missing(e) {
				e = 0
			}
			lo, hi = math.Min(lo, v-e), math.Max(hi, v+e)
			if g < len(s.Points) {
				for _, p := range s.Points[g] {
					lo, hi = math.Min(lo, p), math.Max(hi, p)
				}
			}
		}
	}
	if hi == lo {
		hi = lo + 1
	}
	lo, hi, ticks := niceRange(lo, hi, 6)
	y := scale{lo: lo, hi: hi, p0: bottom, p1: top}
	c.yAxis(y, ticks, tickFormatter(ticks), left, right, b.YLabel)

	n := math.Max(float64(len(b.Series)), 1)
	barW := math.Min(groupW*0.8/n, 56)
	for g, name := range b.Groups {
		gx := left + groupW*float64(g)
		start := gx + (groupW-barW*n)/2
		for i, s := range b.Series {
			v := at(s.Values, g)
			if missing(v) {
				continue
			}
			x := start + barW*float64(i)
			y0, y1 := y.at(math.Max(0, lo)), y.at(v)
			top, h := math.Min(y0, y1), math.Abs(y1-y0)
			tip := at(s.Tips, g)
			if tip == "" {
				tip = fmt.Sprintf("%s, %s: %s", s.Name, name, FormatValue(v))
			}
			c.raw(`<rect class="bar" data-series="%s" data-group="%s" x="%s" y="%s" width="%s" height="%s" fill="%s"><title>%s</title></rect>`,
				esc(s.Name), esc(name), num(x+1), num(top), num(barW-2), num(h), pick(s.Color, i), esc(tip))
			if e := at(s.Errs, g); !missing(e) && e > 0 {
				c.errorBar(x+barW/2, y.at(v-e), y.at(v+e), math.Min(barW/4, 6), "")
			}
			if g < len(s.Points) {
				c.dots(x+barW/2, barW, s.Points[g], y)
			}
		}
		for k, line := range wrap(name, groupW-4) {
			c.text(gx+groupW/2, bottom+16+float64(k)*15, "middle", line, ` class="group"`)
		}
	}
	c.line(left, y.at(math.Max(0, lo)), right, y.at(math.Max(0, lo)), axisInk, 1, "")
	return c.close()
}

// count is the number of bars drawn.
func (b Bars) count() int {
	n := 0
	for _, s := range b.Series {
		for g := range b.Groups {
			if !missing(at(s.Values, g)) {
				n++
			}
		}
	}
	return n
}

// dots draws individual values spread across part of a bar's width.
func (c *canvas) dots(cx, width float64, values []float64, y scale) {
	spread := math.Min(width*0.5, 16)
	for i, v := range values {
		x := cx
		if len(values) > 1 {
			x = cx - spread/2 + spread*float64(i)/float64(len(values)-1)
		}
		c.raw(`<circle class="point" cx="%s" cy="%s" r="2.6" fill="#fff" stroke="%s" stroke-width="1.2"><title>%s</title></circle>`,
			num(x), num(y.at(v)), ink, esc(FormatValue(v)))
	}
}

// at returns xs[i], or NaN when there is no such element.
func at[T float64 | string](xs []T, i int) T {
	var zero T
	if i < len(xs) {
		return xs[i]
	}
	if _, ok := any(zero).(float64); ok {
		return any(math.NaN()).(T)
	}
	return zero
}
