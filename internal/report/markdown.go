package report

import (
	"fmt"
	"io"
	"strings"
)

func init() { RegisterFormat("markdown", writeMarkdown) }

// MarkdownEscape makes text safe inside a markdown table cell.
func MarkdownEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "~", `\~`, "\n", " ", "<", "&lt;", ">", "&gt;", "*", `\*`, "_", `\_`, "`", "\\`")
	return r.Replace(s)
}

// mdEscape is MarkdownEscape under the name attribution.go calls.
func mdEscape(s string) string { return MarkdownEscape(s) }

// writeMarkdown prints the overhead table with confidence intervals.
func writeMarkdown(w io.Writer, r *Report) error {
	fmt.Fprintf(w, "# Study %d: %s\n\n", r.Study.ID, MarkdownEscape(r.Study.Name))
	for _, line := range strings.Split(heading(r), "\n")[1:] {
		fmt.Fprintf(w, "- %s\n", MarkdownEscape(line))
	}
	fmt.Fprintln(w)
	writeVerdictMarkdown(w, r)
	fmt.Fprintf(w, "## Overhead\n\n%s: mean (sd). Other environments: %% deviation from the %s mean, [95 %% CI], (sd); sd: the runs' standard deviation, in the metric's unit; ** marks an interval that excludes 0; ~ a noisy cell (sd above %.0f %% of the mean).\n\n",
		MarkdownEscape(r.Study.Baseline), MarkdownEscape(r.Study.Baseline), NoisyCV*100)
	head := []string{"workload", "metric"}
	for _, e := range r.envs {
		head = append(head, MarkdownEscape(e))
	}
	fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range r.rows() {
		cells := []string{MarkdownEscape(row.name), MarkdownEscape(row.metric)}
		for _, e := range r.envs {
			cells = append(cells, mdCell(row.cells[e]))
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if notes := plainCellNotes(r); len(notes) > 0 {
		fmt.Fprintln(w)
		for _, line := range notes {
			fmt.Fprintf(w, "%s\n", MarkdownEscape(line))
		}
	}
	writeAttributionsMarkdown(w, r.Attributions)
	if len(r.Effects) > 0 {
		fmt.Fprintf(w, "\n## Effect sizes\n\n| workload | metric | term | df | F | p | η² | partial η² |\n|---|---|---|---|---|---|---|---|\n")
		var flat []string
		for _, e := range r.Effects {
			f, p := optNum("%.3g", e.F), optNum("%.2g", e.P)
			if e.Note != "" {
				f, p = "NA", "NA"
				if name := e.Workload + " " + e.Label; len(flat) == 0 || flat[len(flat)-1] != name {
					flat = append(flat, name)
				}
			}
			fmt.Fprintf(w, "| %s | %s | %s | %g, %g | %s | %s | %s | %s |\n", MarkdownEscape(e.Workload), MarkdownEscape(e.Label), MarkdownEscape(e.Term), e.DF, e.DFResidual,
				f, p, optNum("%.3f", e.EtaSq), optNum("%.3f", e.PartialEtaSq))
		}
		if len(flat) > 0 {
			fmt.Fprintf(w, "\nNA: %s: %s.\n", MarkdownEscape(strings.Join(flat, ", ")), noResidualNote)
		}
	}
	if len(r.Warnings) > 0 {
		fmt.Fprintf(w, "\n## Warnings\n\n")
		for _, warn := range r.Warnings {
			fmt.Fprintf(w, "- %s\n", MarkdownEscape(warn))
		}
	}
	if len(r.Failures) > 0 {
		fmt.Fprintf(w, "\n## Failed runs\n\n")
		for _, f := range r.Failures {
			fmt.Fprintf(w, "- run %d, %s @ %s: %s\n", f.Seq+1, MarkdownEscape(f.Workload), MarkdownEscape(f.Env), MarkdownEscape(f.Reason))
		}
	}
	return nil
}

func mdCell(c *Cell) string {
	if c == nil || c.IsBaseline || c.absolute || c.OverheadPct == nil {
		return MarkdownEscape(tableCell(c))
	}
	ci := "[n/a]"
	if iv, ok := PctInterval(c.OverheadCI95); ok {
		ci = iv
	}
	pct := FmtPct(*c.OverheadPct)
	if c.Significant {
		pct = "**" + pct + "**"
	}
	if c.Noisy() {
		pct += `\~`
	}
	return fmt.Sprintf("%s %s (sd %s)", pct, ci, FmtValue(c.Std))
}
