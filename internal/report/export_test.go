package report

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
)

// What the tests of package report_test (the HTML page, which package page
// renders and which imports this package) build their reports from.
var (
	Fixtures  = fixtures
	Fixture   = fixture
	Factorial = factorial
)

// The writers of a report, a comparison and a history by format name:
// package formats' map, which this package's tests cannot import (it
// imports report); link_test.go (package report_test) hands them in.
var (
	reportWriters  = map[string]func(io.Writer, *Report) error{}
	compareWriters = map[string]func(io.Writer, *Comparison) error{}
	historyWriters = map[string]func(io.Writer, *History) error{}
)

// LinkWriters adds a format's writers of a report, a comparison and a
// history; nil where it writes none.
func LinkWriters(name string, r func(io.Writer, *Report) error, c func(io.Writer, *Comparison) error, h func(io.Writer, *History) error) {
	if r != nil {
		reportWriters[name] = r
	}
	if c != nil {
		compareWriters[name] = c
	}
	if h != nil {
		historyWriters[name] = h
	}
}

// Write, WriteComparison and WriteHistory write in the named format; an
// unknown name lists the valid ones.
func Write(w io.Writer, format string, r *Report) error {
	return writeBy(reportWriters, "unknown report format %q; valid formats: %s", w, format, r)
}

func WriteComparison(w io.Writer, format string, c *Comparison) error {
	return writeBy(compareWriters, "unknown comparison format %q; valid formats: %s", w, format, c)
}

func WriteHistory(w io.Writer, format string, h *History) error {
	return writeBy(historyWriters, "unknown format %q for report --history; valid formats: %s", w, format, h)
}

// Formats, CompareFormats and HistoryFormats list the format names.
func Formats() []string        { return slices.Sorted(maps.Keys(reportWriters)) }
func CompareFormats() []string { return slices.Sorted(maps.Keys(compareWriters)) }
func HistoryFormats() []string { return slices.Sorted(maps.Keys(historyWriters)) }

func writeBy[T any](m map[string]func(io.Writer, T) error, unknown string, w io.Writer, format string, v T) error {
	fn, ok := m[format]
	if !ok {
		return fmt.Errorf(unknown, format, strings.Join(slices.Sorted(maps.Keys(m)), ", "))
	}
	return fn(w, v)
}
