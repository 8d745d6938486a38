package report

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// Writer renders a report in one format.
type Writer func(w io.Writer, r *Report) error

// formatSet names the writers of one kind of document: a report, a
// comparison of studies, a report by device.
type formatSet[T any] map[string]func(io.Writer, T) error

// names lists the formats, sorted.
func (fs formatSet[T]) names() []string { return slices.Sorted(maps.Keys(fs)) }

// write renders v in the named format. An unknown name is an error that
// says what it is (unknown, a format string with the name's %q) and lists
// the valid ones.
func (fs formatSet[T]) write(w io.Writer, format string, v T, unknown string) error {
	fn, ok := fs[format]
	if !ok {
		return fmt.Errorf("%s; valid formats: %s", fmt.Sprintf(unknown, format), strings.Join(fs.names(), ", "))
	}
	return fn(w, v)
}

// writeIndented prints v as indented JSON, the form of every JSON document.
func writeIndented(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

var formats = formatSet[*Report]{}

func registerFormat(name string, fn Writer) { formats[name] = fn }

// Formats lists the format names.
func Formats() []string { return formats.names() }

// Write renders r in the named format; an unknown name lists the valid ones.
func Write(w io.Writer, format string, r *Report) error {
	return formats.write(w, format, r, "unknown report format %q")
}

// row is one line of the overhead table: one metric of one row group, with a
// cell per environment.
type row struct {
	name   string // workload and non-env levels
	metric string // label with unit
	cells  map[string]*Cell
}

// rows groups the cells into table rows, leaving out secondary metrics.
func (r *Report) rows() []row {
	var out []row
	index := map[string]int{}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.secondary {
			continue
		}
		k := c.group + "\x00" + c.Metric
		n, ok := index[k]
		if !ok {
			n = len(out)
			index[k] = n
			out = append(out, row{name: rowName(c, r.factors), metric: c.Label, cells: map[string]*Cell{}})
		}
		out[n].cells[c.Env] = c
	}
	return out
}

func rowName(c *Cell, factors []string) string {
	parts := []string{c.Workload}
	for _, f := range factors {
		if v, ok := c.Levels[f]; ok {
			parts = append(parts, f+"="+v)
		}
	}
	return strings.Join(parts, " ")
}

// fmtValue prints a measured value with precision suited to its size.
func fmtValue(v float64) string {
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

// fmtPct prints a signed percentage.
func fmtPct(p float64) string { return fmt.Sprintf("%+.1f%%", p) }

// seedCell renders one table cell in the seeds' layout: the baseline as
// mean (std), any other level as % deviation (std), with * when the 95 %
// interval of the deviation excludes zero.
func seedCell(c *Cell) string {
	switch {
	case c == nil:
		return "-"
	case c.IsBaseline:
		return fmt.Sprintf("%s (%s)", fmtValue(c.Mean), fmtValue(c.Std))
	case c.absolute:
		return fmt.Sprintf("%s (%s)", fmtValue(c.Mean), fmtValue(c.Std))
	case c.OverheadPct == nil:
		return fmt.Sprintf("%s (%s) abs", fmtValue(c.Mean), fmtValue(c.Std))
	}
	star := ""
	if c.Significant {
		star = "*"
	}
	return fmt.Sprintf("%s%s (%s)", fmtPct(*c.OverheadPct), star, fmtValue(c.Std))
}
