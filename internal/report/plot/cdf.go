package plot

import (
	"fmt"
	"math"
	"strings"
)

// CDF plots cumulative distributions, e.g. of latencies: for every series,
// the fraction of values at or below x. From a long series it is the
// empirical distribution; from percentile metrics (p50, p90, p99) it is the
// few points published, drawn with markers.
type CDF struct {
	Title   string
	XLabel  string // the quantity and its unit
	Series  []CDFSeries
	Markers bool // draw a marker at every point (few points, e.g. percentiles)
	Desc    string
}

// CDFSeries is one distribution: X ascending, P the cumulative fraction in [0, 1].
type CDFSeries struct {
	Name  string
	Color string // empty: the palette's colour for the series' position
	X, P  []float64
}

// SVG renders the chart. The x axis is logarithmic when the values are
// positive and span more than two decades, as latency tails often do.
func (d CDF) SVG() string {
	const height = 340.0
	var c canvas
	top := c.begin("cdf", height, d.Title, d.Desc, fmt.Sprintf(` data-lines="%d"`, len(d.Series)), legendOf(d.Series, "line"))
	left, right, bottom := 64.0, float64(Width-28), height-46
	xlo, xhi := math.Inf(1), math.Inf(-1)
	for _, s := range d.Series {
		for _, x := range s.X {
			if !missing(x) {
				xlo, xhi = math.Min(xlo, x), math.Max(xhi, x)
			}
		}
	}
	if math.IsInf(xlo, 0) {
		xlo, xhi = 0, 1
	}
	logX := xlo > 0 && xhi/xlo > 100
	var x scale
	var xticks []float64
	if logX {
		lo, hi := math.Pow(10, math.Floor(math.Log10(xlo))), math.Pow(10, math.Ceil(math.Log10(xhi)))
		x = scale{lo: lo, hi: hi, p0: left, p1: right, log: true}
		for t := lo; t <= hi*1.0001; t *= 10 {
			xticks = append(xticks, t)
		}
	} else {
		var lo, hi float64
		lo, hi, xticks = niceRange(xlo, xhi, 7)
		x = scale{lo: lo, hi: hi, p0: left, p1: right}
	}
	y := scale{lo: 0, hi: 1, p0: bottom, p1: top}
	yticks := []float64{0, 0.25, 0.5, 0.75, 1}
	c.yAxis(y, yticks, func(v float64) string { return fmt.Sprintf("%.0f%%", v*100) }, left, right, "cumulative share of values")
	xfmt := tickFormatter(xticks)
	if logX {
		xfmt = decade
	}
	c.xAxis(x, xticks, xfmt, left, right, bottom, height-10, d.XLabel)
	for i, s := range d.Series {
		var pts []string
		eachPoint(s.X, s.P, func(_ int, xv, p float64) {
			pts = append(pts, num(x.at(xv))+","+num(y.at(p)))
		})
		c.raw(`<polyline class="line" data-series="%s" points="%s" fill="none" stroke="%s" stroke-width="2"><title>%s</title></polyline>`,
			esc(s.Name), strings.Join(pts, " "), pick(s.Color, i), esc(s.Name))
		if d.Markers {
			eachPoint(s.X, s.P, func(_ int, xv, p float64) {
				c.raw(`<circle class="marker" cx="%s" cy="%s" r="3.5" fill="%s"><title>%s</title></circle>`,
					num(x.at(xv)), num(y.at(p)), pick(s.Color, i), esc(fmt.Sprintf("%s: p%s = %s", s.Name, FormatValue(p*100), FormatValue(xv))))
			})
		}
	}
	return c.close()
}

// decade prints a power of ten briefly: 10, 100, 1k, 10k, 1M.
func decade(v float64) string {
	switch {
	case v >= 1e6:
		return fmt.Sprintf("%gM", v/1e6)
	case v >= 1e3:
		return fmt.Sprintf("%gk", v/1e3)
	}
	return fmt.Sprintf("%g", v)
}
