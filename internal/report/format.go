package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/registry"
	"github.com/boxtax/boxtax/internal/termtext"
)

// Writer renders a report in one format.
type Writer func(w io.Writer, r *Report) error

var formats = registry.Registry[Writer]{Unknown: "unknown report format %q; valid formats: %s"}

// RegisterFormat adds a format by name: json here, the others from the
// packages that write them (tables, page), in their init.
func RegisterFormat(name string, fn Writer) { formats.Register(name, fn) }

// Formats lists the format names.
func Formats() []string { return formats.Names() }

// Write renders r in the named format; an unknown name lists the valid ones.
func Write(w io.Writer, format string, r *Report) error {
	return writeWith(&formats, w, format, r)
}

// writeWith renders v with the writer reg holds under format; an unknown
// name lists the valid ones.
func writeWith[T any, F ~func(io.Writer, T) error](reg *registry.Registry[F], w io.Writer, format string, v T) error {
	fn, err := reg.Lookup(format)
	if err != nil {
		return err
	}
	return fn(TextSafe(w, format), v)
}

// TextSafe is where a format writes: the table and Markdown formats, read
// on a terminal, show control characters in stored text (names, reasons,
// warnings) as visible escapes (termtext); the other formats escape in
// their own way.
func TextSafe(w io.Writer, format string) io.Writer {
	if format == "table" || format == "markdown" {
		return termtext.Wrap(w) // a Safe writer (the cli's colours) stays as it is
	}
	return w
}

// CellStyler is implemented by a writer that marks the table's cells, as
// the cli's colours on a terminal do: StyleCell returns a cell's text as
// written (c is nil for a column heading). It must add as many runes to
// every cell of the environments' columns, so that the columns stay aligned.
type CellStyler interface {
	StyleCell(c *Cell, text string) string
}

// Row is one line of the overhead table: one metric of one row group, with
// a cell per environment.
type Row struct {
	Name   string // workload and non-env levels
	Metric string // label with unit
	Cells  map[string]*Cell
}

// Rows groups the cells into table rows, leaving out secondary metrics.
func (r *Report) Rows() []Row {
	var out []Row
	index := map[string]int{}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Secondary {
			continue
		}
		k := c.Group + "\x00" + c.Metric
		n, ok := index[k]
		if !ok {
			n = len(out)
			index[k] = n
			out = append(out, Row{Name: RowName(c, r.factors), Metric: c.Label, Cells: map[string]*Cell{}})
		}
		out[n].Cells[c.Env] = c
	}
	return out
}

// RowName is c's row in the tables: its workload and its levels of
// factors, as "cpu.prime threads=2".
func RowName(c *Cell, factors []string) string {
	parts := []string{c.Workload}
	for _, f := range factors {
		if v, ok := c.Levels[f]; ok {
			parts = append(parts, f+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// FmtValue prints a measured value with precision suited to its size.
func FmtValue(v float64) string {
	a := v
	if a < 0 {
		a = -a
	}
	switch {
	case a >= 1000:
		return fmt.Sprintf("%.0f", v)
	case a >= 100:
		return fmt.Sprintf("%.1f", v)
	case a >= 1:
		return fmt.Sprintf("%.2f", v)
	case a == 0:
		return "0"
	}
	return fmt.Sprintf("%.3g", v)
}

// FmtPct prints a signed percentage.
func FmtPct(p float64) string { return fmt.Sprintf("%+.1f%%", p) }

// ends is a 95 % interval's ends, and whether it has both (a stored
// interval holds nil for an end that could not be computed).
func ends(ci []*float64) (lo, hi float64, ok bool) {
	if len(ci) != 2 || ci[0] == nil || ci[1] == nil {
		return 0, 0, false
	}
	return *ci[0], *ci[1], true
}

// PctInterval is the interval ci as "[lo, hi]" in percent, and whether it
// has both ends.
func PctInterval(ci []*float64) (string, bool) {
	lo, hi, ok := ends(ci)
	if !ok {
		return "", false
	}
	return fmt.Sprintf("[%s, %s]", FmtPct(lo), FmtPct(hi)), true
}

// SeedCell renders one table cell in the seeds' layout: the baseline as
// mean (std), any other level as % deviation (std), with * when the 95 %
// interval of the deviation excludes zero.
func SeedCell(c *Cell) string {
	switch {
	case c == nil:
		return "-"
	case c.IsBaseline:
		return fmt.Sprintf("%s (%s)", FmtValue(c.Mean), FmtValue(c.Std))
	case c.absolute:
		return fmt.Sprintf("%s (%s)", FmtValue(c.Mean), FmtValue(c.Std))
	case c.OverheadPct == nil:
		return fmt.Sprintf("%s (%s) abs", FmtValue(c.Mean), FmtValue(c.Std))
	}
	star := ""
	if c.Significant {
		star = "*"
	}
	return fmt.Sprintf("%s%s (%s)", FmtPct(*c.OverheadPct), star, FmtValue(c.Std))
}

// sortedKeys is m's keys in order.
func sortedKeys[V any](m map[string]V) []string {
	return slices.Sorted(maps.Keys(m))
}
