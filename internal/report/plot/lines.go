package plot

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Lines plots series against a numeric factor (threads, clients, payload
// size): one line per series with a whisker of ±Err at every point.
type Lines struct {
	Title  string
	XLabel string
	YLabel string
	Series []LineSeries
	Desc   string
}

// LineSeries is one line; X, Y and Err run in parallel.
type LineSeries struct {
	Name  string
	Color string // empty: the palette's colour for the series' position
	X     []float64
	Y     []float64
	Err   []float64 // half-length of the whisker; nil or NaN: none
	Tips  []string
}

// SVG renders the chart. The x axis is logarithmic when the levels are
// positive and span a factor of 10 or more (1, 2, 4, ... 64 clients).
func (l Lines) SVG() string {
	const height = 340.0
	var c canvas
	points := 0
	for _, s := range l.Series {
		points += len(s.X)
	}
	top := c.begin("lines", height, l.Title, l.Desc, fmt.Sprintf(` data-lines="%d" data-points="%d"`, len(l.Series), points), legendOf(l.Series, "line"))
	left, right, bottom := 64.0, float64(Width-16), height-46

	xs := map[float64]bool{}
	ylo, yhi := 0.0, 0.0
	for _, s := range l.Series {
		eachPoint(s.X, s.Y, func(i int, x, v float64) {
			xs[x] = true
			e := at(s.Err, i)
			if missing(e) {
				e = 0
			}
			ylo, yhi = math.Min(ylo, v-e), math.Max(yhi, v+e)
		})
	}
	levels := make([]float64, 0, len(xs))
	for x := range xs {
		levels = append(levels, x)
	}
	sort.Float64s(levels)
	if len(levels) == 0 {
		levels = []float64{0, 1}
	}
	xlo, xhi := levels[0], levels[len(levels)-1]
	logX := xlo > 0 && xhi/xlo >= 10
	pad := (right - left) * 0.06
	x := scale{lo: xlo, hi: xhi, p0: left + pad, p1: right - pad, log: logX}
	xticks := levels
	if len(levels) > 12 && !logX {
		_, _, xticks = niceRange(xlo, xhi, 8)
	}
	if yhi == ylo {
		yhi = ylo + 1
	}
	ylo, yhi, yticks := niceRange(ylo, yhi, 6)
	y := scale{lo: ylo, hi: yhi, p0: bottom, p1: top}
	c.yAxis(y, yticks, tickFormatter(yticks), left, right, l.YLabel)
	var inside []float64
	for _, t := range xticks {
		if !(t < xlo || t > xhi) {
			inside = append(inside, t)
		}
	}
	c.xAxis(x, inside, FormatValue, left, right, bottom, height-10, l.XLabel)

	// Series are nudged apart so that whiskers at one level do not hide each other.
	dodge := func(i int) float64 { return (float64(i) - float64(len(l.Series)-1)/2) * 5 }
	for i, s := range l.Series {
		var path []string
		eachPoint(s.X, s.Y, func(_ int, xv, v float64) {
			path = append(path, num(x.at(xv)+dodge(i))+","+num(y.at(v)))
		})
		c.raw(`<polyline class="line" data-series="%s" points="%s" fill="none" stroke="%s" stroke-width="2.2"/>`,
			esc(s.Name), strings.Join(path, " "), pick(s.Color, i))
		eachPoint(s.X, s.Y, func(k int, xv, v float64) {
			px := x.at(xv) + dodge(i)
			if e := at(s.Err, k); !missing(e) && e > 0 {
				c.errorBar(px, y.at(v-e), y.at(v+e), 4, "")
			}
			tip := at(s.Tips, k)
			if tip == "" {
				tip = fmt.Sprintf("%s at %s: %s", s.Name, FormatValue(xv), FormatValue(v))
			}
			c.raw(`<circle class="marker" cx="%s" cy="%s" r="3.8" fill="%s" stroke="#fff" stroke-width="1"><title>%s</title></circle>`,
				num(px), num(y.at(v)), pick(s.Color, i), esc(tip))
		})
	}
	return c.close()
}
