package plot

import (
	"fmt"
	"math"
)

// Intervals is a forest plot: one row per quantity (a workload's metric),
// for each series (an environment) its estimate as a dot and its confidence
// interval as a line, against a zero line. It shows at a glance which
// deviations are large and which are beyond noise.
type Intervals struct {
	Title  string
	XLabel string
	Rows   []string
	Series []IntervalSeries
	Desc   string
}

// IntervalSeries is one series with an entry per row; NaN: nothing to draw.
type IntervalSeries struct {
	Name        string
	Color       string // empty: the palette's colour for the series' position
	Est, Lo, Hi []float64
	Strong      []bool // filled marker: the interval excludes zero
	Tips        []string
}

// SVG renders the chart. Intervals reaching beyond the axis are cut and end
// in an arrow; the axis always holds every estimate and zero.
func (f Intervals) SVG() string {
	rowH := 10.0 + 8*math.Max(float64(len(f.Series)), 1)
	labelW := 80.0
	for _, r := range f.Rows {
		labelW = math.Max(labelW, textWidth(r, fontSize)+14)
	}
	labelW = math.Min(labelW, 250)
	var c canvas
	var legendH float64
	{
		// measure the legend on a scratch canvas to know the height
		var scratch canvas
		legendH = scratch.legend(f.legendItems(), 40)
	}
	top := 30 + legendH + 10
	height := top + rowH*float64(len(f.Rows)) + 46
	marks := 0
	for _, s := range f.Series {
		for i := range f.Rows {
			if !missing(at(s.Est, i)) {
				marks++
			}
		}
	}
	c.open("intervals", height, f.Title, f.Desc, fmt.Sprintf(` data-rows="%d" data-marks="%d"`, len(f.Rows), marks))
	c.heading(f.Title)
	c.legend(f.legendItems(), 40)
	left, right := labelW, float64(Width-20)
	bottom := top + rowH*float64(len(f.Rows))

	lo, hi, maxEst := 0.0, 0.0, 0.0
	for _, s := range f.Series {
		for i := range f.Rows {
			if e := at(s.Est, i); !missing(e) {
				lo, hi, maxEst = math.Min(lo, e), math.Max(hi, e), math.Max(maxEst, math.Abs(e))
			}
		}
	}
	// Interval ends widen the axis, but only up to a limit: one unbounded
	// interval must not squash every other row into the zero line.
	limit := math.Max(2*maxEst, 10)
	dataLo := lo // the smallest value drawn, however far
	for _, s := range f.Series {
		for i := range f.Rows {
			for _, v := range []float64{at(s.Lo, i), at(s.Hi, i)} {
				if !missing(v) {
					lo, hi = math.Min(lo, math.Max(v, -limit)), math.Max(hi, math.Min(v, limit))
					dataLo = math.Min(dataLo, v)
				}
			}
		}
	}
	lo, hi, ticks := niceRange(lo, hi, 7)
	lo, ticks = floorAt(lo, ticks, dataLo, MinPct)
	x := scale{lo: lo, hi: hi, p0: left + 6, p1: right}
	for i, r := range f.Rows {
		ry := top + rowH*float64(i)
		if i%2 == 0 {
			c.raw(`<rect x="0" y="%s" width="%d" height="%s" fill="#f5f5f5"/>`, num(ry), Width, num(rowH))
		}
		c.text(left-8, ry+rowH/2+4, "end", shorten(r, labelW-10), ` class="row"`)
	}
	for _, t := range ticks {
		px := x.at(t)
		stroke, w := gridInk, 1.0
		if t == 0 {
			stroke, w = axisInk, 1.5
		}
		c.line(px, top, px, bottom, stroke, w, "")
		label := fmt.Sprintf("%+g%%", t)
		if t == 0 {
			label = "0"
		}
		c.text(px, bottom+16, "middle", label, ` class="tick"`)
	}
	c.xLabel(left, right, bottom+38, f.XLabel)
	for si, s := range f.Series {
		off := (float64(si) - float64(len(f.Series)-1)/2) * 8
		for i := range f.Rows {
			e := at(s.Est, i)
			if missing(e) {
				continue
			}
			cy := top + rowH*float64(i) + rowH/2 + off
			l, h := at(s.Lo, i), at(s.Hi, i)
			col := pick(s.Color, si)
			if !missing(l) && !missing(h) {
				x1, x2 := x.at(math.Max(l, lo)), x.at(math.Min(h, hi))
				c.line(x1, cy, x2, cy, col, 2, "")
				if l < lo {
					c.raw(`<path d="M%s %sl6 -4v8z" fill="%s"/>`, num(x1), num(cy), col)
				}
				if h > hi {
					c.raw(`<path d="M%s %sl-6 -4v8z" fill="%s"/>`, num(x2), num(cy), col)
				}
			}
			fill := "#fff"
			if i < len(s.Strong) && s.Strong[i] {
				fill = col
			}
			tip := at(s.Tips, i)
			if tip == "" {
				tip = fmt.Sprintf("%s, %s: %+.1f%%", f.Rows[i], s.Name, e)
			}
			c.raw(`<circle class="estimate" data-series="%s" cx="%s" cy="%s" r="4" fill="%s" stroke="%s" stroke-width="1.8"><title>%s</title></circle>`,
				esc(s.Name), num(x.at(math.Max(lo, math.Min(hi, e)))), num(cy), fill, col, esc(tip))
		}
	}
	return c.close()
}

// MinPct is the smallest deviation a ratio of non-negative means has:
// -100 %. An axis of deviations ends there unless a value lies below.
const MinPct = -100.0

// floorAt raises an axis's lower end lo, rounded out to a tick below
// floor, back to floor when no value (dataLo) lies below it, and drops the
// ticks beyond: a deviation axis does not run to -200 % for data that stop
// at -100 %.
func floorAt(lo float64, ticks []float64, dataLo, floor float64) (float64, []float64) {
	if lo >= floor || dataLo < floor {
		return lo, ticks
	}
	kept := []float64{floor}
	for _, t := range ticks {
		if t > floor {
			kept = append(kept, t)
		}
	}
	return floor, kept
}

func (f Intervals) legendItems() []legendItem {
	items := make([]legendItem, len(f.Series))
	for i, s := range f.Series {
		items[i] = legendItem{s.Name, pick(s.Color, i), "dot"}
	}
	return items
}
