package plot

import (
	"fmt"
	"html"
	"math"
	"strings"
)

// Size of every chart in SVG user units (pixels at 100 %); charts scale to
// the width of their container.
const (
	Width      = 640
	fontFamily = `system-ui, -apple-system, 'Segoe UI', Roboto, 'DejaVu Sans', Arial, sans-serif`
	fontSize   = 12
	ink        = "#222"
	gridInk    = "#e3e3e3"
	axisInk    = "#666"
)

// Palette gives series their colours in order: the Okabe-Ito palette, which
// readers with the common colour-vision deficiencies can tell apart.
var Palette = []string{"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#8C6D1F", "#000000"}

// Color returns the i-th colour of the palette, cycling.
func Color(i int) string { return Palette[((i%len(Palette))+len(Palette))%len(Palette)] }

// canvas accumulates SVG elements.
type canvas struct {
	b strings.Builder
}

// esc escapes text for SVG content and attribute values.
func esc(s string) string { return html.EscapeString(s) }

// num prints a coordinate with at most two decimals.
func num(f float64) string {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return "0"
	}
	s := fmt.Sprintf("%.2f", f)
	s = strings.TrimRight(strings.TrimRight(s, "0"), ".")
	if s == "-0" {
		return "0"
	}
	return s
}

func (c *canvas) raw(format string, a ...any) { fmt.Fprintf(&c.b, format, a...) }

// open starts the document: size, accessible name and description.
func (c *canvas) open(kind string, height float64, title, desc string, attrs string) {
	c.raw(`<svg xmlns="http://www.w3.org/2000/svg" class="plot" data-kind="%s" viewBox="0 0 %d %s" width="%d" height="%s" role="img" font-family="%s" font-size="%d" fill="%s"%s>`,
		kind, Width, num(height), Width, num(height), esc(fontFamily), fontSize, ink, attrs)
	c.raw(`<title>%s</title>`, esc(title))
	if desc != "" {
		c.raw(`<desc>%s</desc>`, esc(desc))
	}
	c.raw(`<rect x="0" y="0" width="%d" height="%s" fill="#fff"/>`, Width, num(height))
}

func (c *canvas) close() string {
	c.raw("</svg>\n")
	return c.b.String()
}

// text writes a label; anchor is start, middle or end.
func (c *canvas) text(x, y float64, anchor, s string, extra string) {
	c.raw(`<text x="%s" y="%s" text-anchor="%s"%s>%s</text>`, num(x), num(y), anchor, extra, esc(s))
}

func (c *canvas) line(x1, y1, x2, y2 float64, stroke string, width float64, extra string) {
	c.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s" stroke="%s" stroke-width="%s"%s/>`,
		num(x1), num(y1), num(x2), num(y2), stroke, num(width), extra)
}

// errorBar draws a vertical whisker from y1 to y2 at x with caps.
func (c *canvas) errorBar(x, y1, y2, cap float64, tip string) {
	c.raw(`<g class="err" stroke="%s" stroke-width="1.2">`, ink)
	if tip != "" {
		c.raw(`<title>%s</title>`, esc(tip))
	}
	c.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x), num(y1), num(x), num(y2))
	c.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x-cap), num(y1), num(x+cap), num(y1))
	c.raw(`<line x1="%s" y1="%s" x2="%s" y2="%s"/>`, num(x-cap), num(y2), num(x+cap), num(y2))
	c.raw(`</g>`)
}

// heading writes the chart title at the top left.
func (c *canvas) heading(title string) {
	c.text(8, 18, "start", title, ` font-size="14" font-weight="600"`)
}

// begin opens a chart of series (open), writes its title and the legend of
// its series under it, and returns where the plot area starts.
func (c *canvas) begin(kind string, height float64, title, desc, attrs string, legend []legendItem) (top float64) {
	c.open(kind, height, title, desc, attrs)
	c.heading(title)
	return 30 + c.legend(legend, 40) + 10
}

// textWidth estimates the width of s at the given font size.
func textWidth(s string, size float64) float64 {
	return float64(len([]rune(s))) * size * 0.58
}

// wrap splits s into at most two lines that fit width at fontSize, cutting
// at spaces; a line that still does not fit is shortened with an ellipsis.
func wrap(s string, width float64) []string {
	if textWidth(s, fontSize) <= width {
		return []string{s}
	}
	words := strings.Fields(s)
	var first []string
	for len(words) > 0 && textWidth(strings.Join(append(first, words[0]), " "), fontSize) <= width {
		first = append(first, words[0])
		words = words[1:]
	}
	if len(first) == 0 {
		return []string{shorten(s, width)}
	}
	lines := []string{strings.Join(first, " ")}
	if len(words) > 0 {
		lines = append(lines, shorten(strings.Join(words, " "), width))
	}
	return lines
}

// shorten cuts s to fit width, ending in an ellipsis.
func shorten(s string, width float64) string {
	r := []rune(s)
	max := int(width / (fontSize * 0.58))
	if len(r) <= max || max < 2 {
		return s
	}
	return string(r[:max-1]) + "…"
}

// missing tells a value that cannot be drawn: NaN (no data) or infinite.
func missing(v float64) bool { return math.IsNaN(v) || math.IsInf(v, 0) }

// eachPoint calls draw, in order, for every point k of a series given as
// parallel xs and ys whose x and y can both be drawn (a y beyond the end
// of ys is missing).
func eachPoint(xs, ys []float64, draw func(k int, x, y float64)) {
	for k, x := range xs {
		if y := at(ys, k); !missing(x) && !missing(y) {
			draw(k, x, y)
		}
	}
}
