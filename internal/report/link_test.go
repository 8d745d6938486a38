package report_test

import (
	"os"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/formats"
)

// TestMain hands this package's tests the writers of every format from
// package formats, which imports report (so only these external tests may
// import it): the golden files cover every format of a report, a
// comparison and a history.
func TestMain(m *testing.M) {
	for name, w := range formats.ByName {
		report.LinkWriters(name, w.Report, w.Compare, w.History)
	}
	os.Exit(m.Run())
}
