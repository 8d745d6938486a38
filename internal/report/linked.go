package report

import (
	"io"
	"sync"
)

// The views that sit above the model register themselves here, as the
// HTML page registers its format: package page its figures, package papers
// the published tables. A program links them in by importing
// internal/report/papers (which imports page); cmd/boxtax does. Then one
// caller writes a report in any format, with or without a published study
// beside it, through this package alone (WriteAs, Plots, PaperIDs).

// Papers is what package papers gives a report: the transcribed studies'
// ids, the formats of a comparison, matching a report's cells to a
// study's published values, the tables that share a metric with a report
// (what the HTML page shows), and writing a comparison.
type Papers struct {
	IDs     func() []string
	Formats func() []string
	Compare func(r *Report, id string) ([]PaperComparison, error)
	Shared  func(r *Report) []PaperComparison
	Write   func(w io.Writer, format string, r *Report, cmps []PaperComparison) error
}

var linked struct {
	sync.RWMutex
	papers  *Papers
	figures func(*Report) []Figure
}

// RegisterPapers links the published tables in (package papers' init).
func RegisterPapers(p Papers) {
	linked.Lock()
	defer linked.Unlock()
	linked.papers = &p
}

// RegisterFigures links in what draws a report's figures (package page's
// init): Plots writes them.
func RegisterFigures(f func(*Report) []Figure) {
	linked.Lock()
	defer linked.Unlock()
	linked.figures = f
}

// linkedPapers are the registered published tables; a program that did not
// link them in is a bug, so it panics saying which import is missing.
func linkedPapers() *Papers {
	linked.RLock()
	defer linked.RUnlock()
	if linked.papers == nil {
		panic("report: the published tables are not linked in: import internal/report/papers")
	}
	return linked.papers
}

// PaperIDs lists the ids of the transcribed papers.
func PaperIDs() []string { return linkedPapers().IDs() }

// OutputFormats lists the formats WriteAs takes: the report's own, or with
// a published study beside it (paper), those of a comparison.
func OutputFormats(paper bool) []string {
	if paper {
		return linkedPapers().Formats()
	}
	return Formats()
}

// ComparePaper matches r's cells to the values published by paper id; an
// unknown id lists the valid ones.
func ComparePaper(r *Report, id string) ([]PaperComparison, error) {
	return linkedPapers().Compare(r, id)
}

// WriteAs writes r in format as boxtax report does. With paper, cmps
// (ComparePaper's) are written beside r's numbers in a comparison's
// format; without, r is written in its own format, and the HTML page shows
// every published table that shares a metric with the study.
func WriteAs(w io.Writer, format string, r *Report, paper bool, cmps []PaperComparison) error {
	p := linkedPapers()
	if paper {
		return p.Write(w, format, r, cmps)
	}
	if format == "html" {
		r.ShowPapers(p.Shared(r))
	}
	return Write(w, format, r)
}

// Plots are r's figures (as the HTML page draws them) as standalone SVG
// files (PlotFiles).
func Plots(r *Report) []PlotFile {
	linked.RLock()
	figures := linked.figures
	linked.RUnlock()
	if figures == nil {
		panic("report: the figures are not linked in: import internal/report/page")
	}
	return PlotFiles(figures(r))
}
