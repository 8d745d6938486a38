// Package formats is the one map from a format's name (what --format
// takes) to what it writes of each document: a study's report, the report
// beside a paper's published tables (--compare-paper), a comparison of
// studies, a study by device (--by host) and a history (--history). The
// writers are plain functions of package report's model in packages tables,
// page, papers and report (JSON); the cli and the browser (package browse,
// which serves them with the format's ContentType) pick theirs here, and
// list the valid names when one is unknown.
package formats

import (
	"io"
	"slices"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/page"
	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/report/tables"
)

// Format is what one format writes of each document (nil where it writes
// none), and the content type of what it writes.
type Format struct {
	ContentType string
	Report      func(io.Writer, *report.Report) error
	Paper       func(io.Writer, *report.Report, []report.PaperComparison) error
	Compare     func(io.Writer, *report.Comparison) error
	Devices     func(io.Writer, *report.Devices) error
	History     func(io.Writer, *report.History) error
}

// ByName are the formats by name.
var ByName = map[string]Format{
	"table": {ContentType: "text/plain; charset=utf-8",
		Report: tables.WriteTable, Paper: papers.WriteTable, Compare: tables.WriteCompareTable,
		Devices: tables.WriteDevicesTable, History: tables.WriteHistoryTable},
	"markdown": {ContentType: "text/markdown; charset=utf-8",
		Report: tables.WriteMarkdown, Paper: papers.WriteMarkdown, Compare: tables.WriteCompareMarkdown,
		Devices: tables.WriteDevicesMarkdown, History: tables.WriteHistoryMarkdown},
	"latex": {ContentType: "text/x-tex; charset=utf-8",
		Report: tables.WriteLaTeX, Paper: papers.WriteLaTeX},
	"csv": {ContentType: "text/csv; charset=utf-8",
		Report: tables.WriteCSV, Paper: papers.WriteCSV, Devices: tables.WriteDevicesCSV},
	"json": {ContentType: "application/json",
		Report: report.WriteJSON[*report.Report], Paper: papers.WriteJSON, Compare: report.WriteJSON[*report.Comparison],
		Devices: report.WriteJSON[*report.Devices], History: report.WriteJSON[*report.History]},
	"html": {ContentType: "text/html; charset=utf-8",
		Report: writePage, Paper: writePaperPage, Devices: tables.WriteDevicesHTML, History: tables.WriteHistoryHTML},
}

// writePage is the HTML report: it shows every published table that shares
// a metric with the study.
func writePage(w io.Writer, r *report.Report) error {
	r.ShowPapers(papers.Shared(r))
	return page.Write(w, r)
}

// writePaperPage is the HTML report with a paper's tables (cmps) beside
// its numbers.
func writePaperPage(w io.Writer, r *report.Report, cmps []report.PaperComparison) error {
	r.ShowPapers(cmps)
	return page.Write(w, r)
}

// of lists, in name order, the formats that write a document: those whose
// writer of it (has) is set.
func of(has func(Format) bool) []string {
	var names []string
	for name, w := range ByName {
		if has(w) {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	return slices.Clip(names)
}

// Report lists the formats of a report.
func Report() []string { return of(func(w Format) bool { return w.Report != nil }) }

// Paper lists the formats of a report beside a paper's tables.
func Paper() []string { return of(func(w Format) bool { return w.Paper != nil }) }

// Compare lists the formats of a comparison of studies.
func Compare() []string { return of(func(w Format) bool { return w.Compare != nil }) }

// Devices lists the formats of a study by device.
func Devices() []string { return of(func(w Format) bool { return w.Devices != nil }) }

// History lists the formats of a history.
func History() []string { return of(func(w Format) bool { return w.History != nil }) }
