package papers

import (
	"bytes"
	"slices"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
)

// TestLinkedIntoReport: importing papers links the published tables and
// the page's figures into report, so a caller writes any format through
// report alone: the ids, the formats of a comparison, a comparison and the
// HTML page with the tables that share a metric.
func TestLinkedIntoReport(t *testing.T) {
	if got := report.PaperIDs(); len(got) == 0 || !slices.Equal(got, IDs()) {
		t.Errorf("report.PaperIDs() = %v, want %v", got, IDs())
	}
	if got := report.OutputFormats(true); !slices.Equal(got, Formats()) {
		t.Errorf("report.OutputFormats(true) = %v, want %v", got, Formats())
	}
	if got := report.OutputFormats(false); !slices.Equal(got, report.Formats()) || !slices.Contains(got, "html") {
		t.Errorf("report.OutputFormats(false) = %v, want the report's formats with html", got)
	}
	rep := quickish()
	if _, err := report.ComparePaper(rep, "no-such-paper"); err == nil {
		t.Error("ComparePaper accepted an unknown paper")
	}
	cmps, err := report.ComparePaper(rep, "krylovskiy2015")
	if err != nil {
		t.Fatal(err)
	}
	var viaReport, direct bytes.Buffer
	if err := report.WriteAs(&viaReport, "markdown", rep, true, cmps); err != nil {
		t.Fatal(err)
	}
	if err := Write(&direct, "markdown", rep, cmps); err != nil {
		t.Fatal(err)
	}
	if viaReport.Len() == 0 || viaReport.String() != direct.String() {
		t.Errorf("WriteAs with a paper wrote:\n%s\nwant papers.Write's:\n%s", viaReport.String(), direct.String())
	}
	var page bytes.Buffer
	if err := report.WriteAs(&page, "html", rep, false, nil); err != nil {
		t.Fatal(err)
	}
	if shared := Shared(rep); len(shared) == 0 || len(rep.ShownPapers()) != len(shared) {
		t.Errorf("the HTML page shows %d published tables, want the %d that share a metric", len(rep.ShownPapers()), len(shared))
	}
	if plots := report.Plots(rep); len(plots) == 0 {
		t.Error("report.Plots drew no figure: the page's figures are not linked in")
	}
}
