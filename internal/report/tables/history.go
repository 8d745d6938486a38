package tables

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// decisionWords is how a history's table names a verdict's decision after
// its figures.
var decisionWords = map[string]string{
	report.VerdictCosts:        "costs",
	report.VerdictGains:        "gains",
	report.VerdictNoDifference: "no difference",
	report.VerdictUndecided:    "undecided",
}

// historyPoint is one study's verdict on a cell in a line:
// "-41.0% [-44.0%, -38.0%] costs"; "-" when the study did not measure it.
func historyPoint(p *report.HistoryPoint) string {
	if p == nil {
		return "-"
	}
	s := "n/a"
	if p.OverheadPct != nil {
		s = report.FmtPct(*p.OverheadPct)
	}
	if iv, ok := report.PctInterval(p.OverheadCI95); ok {
		s += " " + iv
	}
	return s + " " + decisionWords[p.Decision]
}

// pointsByStudy lays a cell's points out by the history's studies: nil
// where a study did not measure the cell.
func pointsByStudy(h *report.History, c *report.HistoryCell) []*report.HistoryPoint {
	out := make([]*report.HistoryPoint, len(h.Studies))
	for i := range c.Points {
		out[c.Points[i].Index] = &c.Points[i]
	}
	return out
}

// historyOrder is the cells with contradicting verdicts first (most
// contradictions first), then in the order of the studies' reports.
func historyOrder(h *report.History) []*report.HistoryCell {
	out := make([]*report.HistoryCell, len(h.Cells))
	for i := range h.Cells {
		out[i] = &h.Cells[i]
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Contradictions > out[j].Contradictions })
	return out
}

// historyHeader is what a history says above its table, a line each: the
// studies, the baselines that moved, and the contradictions.
func historyHeader(h *report.History) []string {
	out := []string{fmt.Sprintf("History of %s: %d studies, oldest first; each cell's overhead against the baseline with its 95%% interval and verdict.", h.Host, len(h.Studies))}
	for i, s := range h.Studies {
		what := []string{fmt.Sprintf("%q", s.Name), s.Rounds + " rounds"}
		if s.Kernel != "" {
			what = append(what, "kernel "+s.Kernel)
		}
		if s.Engine != "" {
			what = append(what, s.Engine)
		}
		if s.Boxtax != "" {
			what = append(what, "boxtax "+s.Boxtax)
		}
		out = append(out, fmt.Sprintf("  %d = %s: %s", i+1, s.StudyLabel(), strings.Join(what, ", ")))
	}
	for _, m := range h.BaselineMoves {
		out = append(out, fmt.Sprintf("moved (study %d): %s", m.Study, m.Text))
	}
	n := 0
	for _, c := range h.Cells {
		if c.Contradictions > 0 {
			n++
		}
	}
	if n > 0 {
		out = append(out, fmt.Sprintf("%d cell(s) have verdicts that contradict each other between studies (marked !, listed first): the host's state, not the environment, decided at least one of them.", n))
	}
	return out
}

// WriteHistoryTable prints a history for a terminal: the studies, then a
// row per cell with a column per study.
func WriteHistoryTable(w io.Writer, h *report.History) error {
	w = termtext.Wrap(w)
	for _, line := range historyHeader(h) {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"", "workload", "env", "metric"}
	for i := range h.Studies {
		head = append(head, fmt.Sprint(i+1))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, c := range historyOrder(h) {
		mark := ""
		if c.Contradictions > 0 {
			mark = "!"
		}
		cells := []string{mark, c.Row, c.Env, c.Label}
		for _, p := range pointsByStudy(h, c) {
			cells = append(cells, historyPoint(p))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	return tw.Flush()
}

// WriteHistoryMarkdown prints a history as WriteHistoryTable does, in Markdown.
func WriteHistoryMarkdown(w io.Writer, h *report.History) error {
	w = termtext.Wrap(w)
	fmt.Fprintf(w, "# History of %s\n\n", report.MarkdownEscape(h.Host))
	for _, line := range historyHeader(h)[1:] {
		fmt.Fprintf(w, "%s\n\n", report.MarkdownEscape(strings.TrimSpace(line)))
	}
	head := []string{"", "workload", "env", "metric"}
	for i := range h.Studies {
		head = append(head, fmt.Sprint(i+1))
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, c := range historyOrder(h) {
		mark := ""
		if c.Contradictions > 0 {
			mark = "**!**"
		}
		cells := []string{mark, report.MarkdownEscape(c.Row), report.MarkdownEscape(c.Env), report.MarkdownEscape(c.Label)}
		for _, p := range pointsByStudy(h, c) {
			cells = append(cells, report.MarkdownEscape(historyPoint(p)))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	return nil
}
