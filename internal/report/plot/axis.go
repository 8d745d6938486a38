package plot

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// scale maps data values in [lo, hi] to pixels in [p0, p1], linearly or,
// with log set, logarithmically (lo must then be > 0).
type scale struct {
	lo, hi float64
	p0, p1 float64
	log    bool
}

func (s scale) at(v float64) float64 {
	lo, hi := s.lo, s.hi
	if s.log {
		v, lo, hi = math.Log(math.Max(v, s.lo)), math.Log(lo), math.Log(hi)
	}
	if hi == lo {
		return (s.p0 + s.p1) / 2
	}
	return s.p0 + (v-lo)/(hi-lo)*(s.p1-s.p0)
}

// niceRange widens [lo, hi] to multiples of a round step (1, 2 or 5 times a
// power of ten) giving about n ticks, and returns the ticks.
func niceRange(lo, hi float64, n int) (nlo, nhi float64, ticks []float64) {
	if math.IsNaN(lo) || math.IsNaN(hi) || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		lo, hi = 0, 1
	}
	if hi < lo {
		lo, hi = hi, lo
	}
	if hi == lo {
		pad := math.Abs(hi) * 0.1
		if pad == 0 {
			pad = 1
		}
		lo, hi = lo-pad, hi+pad
	}
	step := niceStep((hi - lo) / float64(max(n-1, 1)))
	nlo = math.Floor(lo/step+1e-9) * step
	nhi = math.Ceil(hi/step-1e-9) * step
	decimals := max(0, int(math.Ceil(-math.Log10(step)))+1)
	for k := 0; nlo+float64(k)*step <= nhi+step/2; k++ {
		ticks = append(ticks, round(nlo+float64(k)*step, decimals))
	}
	return round(nlo, decimals), round(nhi, decimals), ticks
}

// round rounds v to the given decimals, so that ticks print as 0.6, not
// 0.6000000000000001, and never as -0.
func round(v float64, decimals int) float64 {
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'f', decimals, 64), 64)
	if r == 0 {
		return 0
	}
	return r
}

func niceStep(raw float64) float64 {
	if raw <= 0 {
		return 1
	}
	exp := math.Floor(math.Log10(raw))
	f := raw / math.Pow(10, exp)
	var nf float64
	switch {
	case f < 1.5:
		nf = 1
	case f < 2.25:
		nf = 2
	case f < 3.5:
		nf = 2.5
	case f < 7.5:
		nf = 5
	default:
		nf = 10
	}
	return nf * math.Pow(10, exp)
}

// tickFormatter prints tick values with as many decimals as the step needs,
// and with k or M from 10 000 on so labels stay short.
func tickFormatter(ticks []float64) func(float64) string {
	maxAbs, step := 0.0, 0.0
	for i, t := range ticks {
		maxAbs = math.Max(maxAbs, math.Abs(t))
		if i > 0 {
			step = ticks[i] - ticks[i-1]
		}
	}
	div, suffix := 1.0, ""
	switch {
	case maxAbs >= 1e7:
		div, suffix = 1e6, "M"
	case maxAbs >= 1e4:
		div, suffix = 1e3, "k"
	}
	decimals := 0
	if step > 0 {
		decimals = max(0, int(math.Ceil(-math.Log10(step/div)-1e-9)))
		if s := step / div * math.Pow(10, float64(decimals)); math.Abs(s-math.Round(s)) > 1e-6 {
			decimals++ // steps of 2.5
		}
	}
	return func(v float64) string {
		if v == 0 {
			return "0"
		}
		return strconv.FormatFloat(v/div, 'f', decimals, 64) + suffix
	}
}

// FormatValue prints a measured value for a tooltip or label: four
// significant digits, no exponent for everyday magnitudes.
func FormatValue(v float64) string {
	a := math.Abs(v)
	switch {
	case math.IsNaN(v):
		return "n/a"
	case a >= 1e4:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case a >= 1000:
		return strconv.FormatFloat(v, 'f', 1, 64)
	case a == 0:
		return "0"
	case a < 1e-3:
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	s := strconv.FormatFloat(v, 'g', 4, 64)
	if strings.Contains(s, "e") {
		return fmt.Sprintf("%.4f", v)
	}
	return s
}

// yAxis draws horizontal grid lines with labels on the left and the axis
// title rotated along it.
func (c *canvas) yAxis(s scale, ticks []float64, format func(float64) string, left, right float64, label string) {
	for _, t := range ticks {
		y := s.at(t)
		c.line(left, y, right, y, gridInk, 1, "")
		c.text(left-6, y+4, "end", format(t), ` class="tick"`)
	}
	c.line(left, s.p0, left, s.p1, axisInk, 1, "")
	if label != "" {
		mid := (s.p0 + s.p1) / 2
		c.raw(`<text class="axis-label" x="14" y="%s" text-anchor="middle" transform="rotate(-90 14 %s)">%s</text>`,
			num(mid), num(mid), esc(label))
	}
}

// labelsBottom is the bottom of the plot area of a chart height high whose
// labels stand below it, each wrapped to its slot's width.
func labelsBottom(height float64, labels []string, slotW float64) float64 {
	lines := 1
	for _, l := range labels {
		lines = max(lines, len(wrap(l, slotW-4)))
	}
	return height - 12 - float64(lines)*15
}

// xAxis draws the x axis along bottom: its line, a tick with a label at every
// tick value, and its title, which says when the scale is logarithmic.
func (c *canvas) xAxis(s scale, ticks []float64, format func(float64) string, left, right, bottom, labelY float64, label string) {
	c.line(left, bottom, right, bottom, axisInk, 1, "")
	for _, t := range ticks {
		px := s.at(t)
		c.line(px, bottom, px, bottom+4, axisInk, 1, "")
		c.text(px, bottom+17, "middle", format(t), ` class="tick"`)
	}
	if s.log {
		label += " (log scale)"
	}
	c.xLabel(left, right, labelY, label)
}

// xLabel writes the title of the x axis centred under the plot area.
func (c *canvas) xLabel(left, right, y float64, label string) {
	if label != "" {
		c.text((left+right)/2, y, "middle", label, ` class="axis-label"`)
	}
}
