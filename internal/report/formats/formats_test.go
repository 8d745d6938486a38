package formats

import (
	"bytes"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/report/papers"
	"github.com/boxtax/boxtax/internal/report/testdata/testfixture"
	_ "github.com/boxtax/boxtax/internal/workload/all" // the real workloads, whose metrics the papers map to
)

// TestFormatsOfEachDocument: the names each document lists, as --format's
// help and an unknown name's error show them.
func TestFormatsOfEachDocument(t *testing.T) {
	for _, tt := range []struct {
		doc  string
		got  []string
		want string
	}{
		{"report", Report(), "csv, html, json, latex, markdown, table"},
		{"paper", Paper(), "csv, html, json, latex, markdown, table"},
		{"compare", Compare(), "json, markdown, table"},
		{"devices", Devices(), "csv, html, json, markdown, table"},
		{"history", History(), "html, json, markdown, table"},
	} {
		if got := strings.Join(tt.got, ", "); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.doc, got, tt.want)
		}
	}
}

func quickish() *report.Report {
	f := testfixture.Quickish()
	return report.Build(f.Study, report.Layout{Baseline: f.Baseline, Envs: f.Envs, Workloads: f.Workloads}, f.Runs, f.Samples)
}

// TestHTMLShowsThePublishedTables: the HTML report shows every published
// table that shares a metric with the study; beside a paper, that paper's.
func TestHTMLShowsThePublishedTables(t *testing.T) {
	r := quickish()
	var page bytes.Buffer
	if err := ByName["html"].Report(&page, r); err != nil {
		t.Fatal(err)
	}
	if shared := papers.Shared(r); len(shared) == 0 || len(r.ShownPapers()) != len(shared) || !strings.Contains(page.String(), `<section id="papers">`) {
		t.Errorf("the HTML page shows %d published tables, want the %d that share a metric", len(r.ShownPapers()), len(shared))
	}
	r = quickish()
	cmps, err := papers.Compare(r, "krylovskiy2015")
	if err != nil {
		t.Fatal(err)
	}
	page.Reset()
	if err := ByName["html"].Paper(&page, r, cmps); err != nil {
		t.Fatal(err)
	}
	if len(cmps) == 0 || len(r.ShownPapers()) != len(cmps) {
		t.Errorf("the HTML page beside krylovskiy2015 shows %d tables, want its %d", len(r.ShownPapers()), len(cmps))
	}
}
