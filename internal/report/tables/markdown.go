package tables

import (
	"fmt"
	"io"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// WriteMarkdown prints the overhead table with confidence intervals.
func WriteMarkdown(w io.Writer, r *report.Report) error {
	w = termtext.Wrap(w)
	fmt.Fprintf(w, "# Study %d: %s\n\n", r.Study.ID, report.MarkdownEscape(r.Study.Name))
	for _, line := range strings.Split(heading(r), "\n")[1:] {
		fmt.Fprintf(w, "- %s\n", report.MarkdownEscape(line))
	}
	fmt.Fprintln(w)
	writeVerdictMarkdown(w, r)
	fmt.Fprintf(w, "## Overhead\n\n%s: mean (sd). Other environments: %% deviation from the %s mean, [95 %% CI], (sd); sd: the runs' standard deviation, in the metric's unit; ** marks an interval that excludes 0; ~ a noisy cell (sd above %.0f %% of the mean).\n\n",
		report.MarkdownEscape(r.Study.Baseline), report.MarkdownEscape(r.Study.Baseline), report.NoisyCV*100)
	head := []string{"workload", "metric"}
	for _, e := range r.Envs() {
		head = append(head, report.MarkdownEscape(e))
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range r.Rows() {
		cells := []string{report.MarkdownEscape(row.Name), report.MarkdownEscape(row.Metric)}
		for _, e := range r.Envs() {
			cells = append(cells, mdCell(row.Cells[e]))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if notes := plainCellNotes(r); len(notes) > 0 {
		fmt.Fprintln(w)
		for _, line := range notes {
			fmt.Fprintf(w, "%s\n", report.MarkdownEscape(line))
		}
	}
	writeAttributionsMarkdown(w, r.Attributions)
	if len(r.Effects) > 0 {
		fmt.Fprintf(w, "\n## Effect sizes\n\n| workload | metric | term | df | F | p | η² | partial η² |\n|---|---|---|---|---|---|---|---|\n")
		var flat []string
		note := "" // why F and p are NA: the same for every effect
		for _, e := range r.Effects {
			f, p := optNum("%.3g", e.F), optNum("%.2g", e.P)
			if e.Note != "" {
				f, p, note = "NA", "NA", e.Note
				if name := e.Workload + " " + e.Label; len(flat) == 0 || flat[len(flat)-1] != name {
					flat = append(flat, name)
				}
			}
			fmt.Fprintf(w, "| %s | %s | %s | %g, %g | %s | %s | %s | %s |\n", report.MarkdownEscape(e.Workload), report.MarkdownEscape(e.Label), report.MarkdownEscape(e.Term), e.DF, e.DFResidual,
				f, p, optNum("%.3f", e.EtaSq), optNum("%.3f", e.PartialEtaSq))
		}
		if len(flat) > 0 {
			fmt.Fprintf(w, "\nNA: %s: %s.\n", report.MarkdownEscape(strings.Join(flat, ", ")), note)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(w, "\n## Warnings\n\n")
		for _, warn := range r.Warnings {
			fmt.Fprintf(w, "- %s\n", report.MarkdownEscape(warn))
		}
	}
	if len(r.Failures) > 0 {
		fmt.Fprintf(w, "\n## Failed runs\n\n")
		for _, f := range r.Failures {
			fmt.Fprintf(w, "- run %d, %s @ %s: %s\n", f.Seq+1, report.MarkdownEscape(f.Workload), report.MarkdownEscape(f.Env), report.MarkdownEscape(f.Reason))
		}
	}
	return nil
}

// mdCell is one cell of the Markdown table: a deviation with its 95 %
// interval, in bold when the interval excludes 0; else as the table has it.
func mdCell(c *report.Cell) string {
	if c == nil || c.IsBaseline || c.Absolute() || c.OverheadPct == nil {
		return report.MarkdownEscape(tableCell(c))
	}
	ci := "[n/a]"
	if iv, ok := report.PctInterval(c.OverheadCI95); ok {
		ci = iv
	}
	pct := report.FmtPct(*c.OverheadPct)
	if c.Significant {
		pct = "**" + pct + "**"
	}
	if c.Noisy() {
		pct += `\~`
	}
	return fmt.Sprintf("%s %s (sd %s)", pct, ci, report.FmtValue(c.Std))
}
