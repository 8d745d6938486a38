package plot

// legendItem is one entry of a legend: a swatch in a colour and a name.
type legendItem struct {
	name, color string
	swatch      string // "box", "line" or "dot"
}

// legend lays the items out in rows under the title, from y, and returns
// the height it took.
func (c *canvas) legend(items []legendItem, y float64) float64 {
	if len(items) == 0 {
		return 0
	}
	const rowH = 18
	x, rows := 8.0, 1
	c.raw(`<g class="legend">`)
	for _, it := range items {
		name := shorten(it.name, 220)
		w := 22 + textWidth(name, fontSize) + 16
		if x+w > Width-8 && x > 8 {
			x, y, rows = 8, y+rowH, rows+1
		}
		switch it.swatch {
		case "line":
			c.line(x, y-4, x+16, y-4, it.color, 2.5, "")
			c.raw(`<circle cx="%s" cy="%s" r="3" fill="%s"/>`, num(x+8), num(y-4), it.color)
		case "dot":
			c.raw(`<circle cx="%s" cy="%s" r="4.5" fill="%s"/>`, num(x+8), num(y-4), it.color)
		default:
			c.raw(`<rect x="%s" y="%s" width="14" height="12" fill="%s"/>`, num(x+1), num(y-10), it.color)
		}
		c.text(x+22, y, "start", name, "")
		x += w
	}
	c.raw(`</g>`)
	return float64(rows) * rowH
}

// pick returns color, or the palette's i-th colour when color is empty.
func pick(color string, i int) string {
	if color != "" {
		return esc(color)
	}
	return Color(i)
}

// legendOf lists one legend entry a series, in the series' colour or the
// palette's.
func legendOf[S interface{ legend() (name, color string) }](series []S, swatch string) []legendItem {
	items := make([]legendItem, len(series))
	for i, s := range series {
		name, color := s.legend()
		items[i] = legendItem{name, pick(color, i), swatch}
	}
	return items
}

func (s BarSeries) legend() (string, string)  { return s.Name, s.Color }
func (s BoxSeries) legend() (string, string)  { return s.Name, s.Color }
func (s CDFSeries) legend() (string, string)  { return s.Name, s.Color }
func (s LineSeries) legend() (string, string) { return s.Name, s.Color }

func seriesLegend(names []string, swatch string) []legendItem {
	items := make([]legendItem, len(names))
	for i, n := range names {
		items[i] = legendItem{n, Color(i), swatch}
	}
	return items
}
