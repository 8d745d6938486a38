package report_test

import (
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
)

// The writers of every format, handed to this package's tests from package
// formats, which imports report, so that its golden files cover every
// format of a report, a comparison and a history.
func init() {
	for name, w := range formats.ByName {
		report.LinkWriters(name, w.Report, w.Compare, w.History)
	}
}
