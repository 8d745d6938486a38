package report

import (
	"io"

	"github.com/boxtax/boxtax/internal/registry"
	"github.com/boxtax/boxtax/internal/termtext"
)

// Writer renders a report in one format.
type Writer func(w io.Writer, r *Report) error

// The formats of the three documents, by name: a report, a comparison of
// studies and a study by device. json.go registers their JSON; package
// tables the tables (table, markdown, latex, csv...), package page html.
var (
	formats        = registry.Registry[Writer]{Unknown: "unknown report format %q; valid formats: %s"}
	compareFormats = registry.Registry[func(io.Writer, *Comparison) error]{Unknown: "unknown comparison format %q; valid formats: %s"}
	deviceFormats  = registry.Registry[func(io.Writer, *Devices) error]{Unknown: "unknown format %q for a report by host; valid formats: %s"}
	historyFormats = registry.Registry[func(io.Writer, *History) error]{Unknown: "unknown format %q for report --history; valid formats: %s"}
)

// RegisterFormat adds a format of a report by name, in the init of the
// package that writes it.
func RegisterFormat(name string, fn Writer) { formats.Register(name, fn) }

// RegisterCompareFormat adds a format of a comparison by name.
func RegisterCompareFormat(name string, fn func(io.Writer, *Comparison) error) {
	compareFormats.Register(name, fn)
}

// RegisterDeviceFormat adds a format of a report by device by name.
func RegisterDeviceFormat(name string, fn func(io.Writer, *Devices) error) {
	deviceFormats.Register(name, fn)
}

// RegisterHistoryFormat adds a format of a history (report --history) by name.
func RegisterHistoryFormat(name string, fn func(io.Writer, *History) error) {
	historyFormats.Register(name, fn)
}

// HistoryFormats lists the formats a history can be written in.
func HistoryFormats() []string { return historyFormats.Names() }

// WriteHistory renders h in the named format; an unknown name lists the
// valid ones.
func WriteHistory(w io.Writer, format string, h *History) error {
	return writeWith(&historyFormats, w, format, h)
}

// Formats lists the format names.
func Formats() []string { return formats.Names() }

// CompareFormats lists the formats a comparison can be written in.
func CompareFormats() []string { return compareFormats.Names() }

// DeviceFormats lists the formats a report by device can be written in.
func DeviceFormats() []string { return deviceFormats.Names() }

// Write renders r in the named format; an unknown name lists the valid ones.
func Write(w io.Writer, format string, r *Report) error {
	return writeWith(&formats, w, format, r)
}

// WriteComparison renders c in the named format; an unknown name lists the
// valid ones.
func WriteComparison(w io.Writer, format string, c *Comparison) error {
	return writeWith(&compareFormats, w, format, c)
}

// WriteDevices renders d in the named format; an unknown name lists the
// valid ones.
func WriteDevices(w io.Writer, format string, d *Devices) error {
	return writeWith(&deviceFormats, w, format, d)
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
