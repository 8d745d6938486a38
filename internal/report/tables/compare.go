package tables

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// WriteCompareTable prints a comparison for a terminal: the studies, how
// they differ, every shared cell with each study's figure and its
// difference from A, then each study's own container overhead.
func WriteCompareTable(w io.Writer, c *report.Comparison) error {
	w = termtext.Wrap(w)
	for i, s := range c.Studies {
		fmt.Fprintf(w, "%s = %s: %s\n", report.Letter(i), s.Label, describeStudy(s))
	}
	for _, line := range contradictionLines(c) {
		fmt.Fprintln(w, line)
	}
	for _, line := range summaryOf(c) {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	head := compareHead(c, " vs A")
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, row := range c.Rows {
		cells := []string{row.Name, row.Env, row.Label}
		for _, v := range row.Values {
			cells = append(cells, fmt.Sprintf("%s (%s)", report.FmtValue(v.Mean), report.FmtValue(v.Std)))
		}
		for _, v := range row.Values[1:] {
			cells = append(cells, diffText(v))
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if rows := overheadRows(c); len(rows) > 0 {
		fmt.Fprintf(w, "\nContainer overhead in each study (%% deviation from its own %s mean, 95%% CI):\n\n", c.Baseline)
		tw = tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
		head = []string{"workload", "env", "metric"}
		for i := range c.Studies {
			head = append(head, report.Letter(i))
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, row := range rows {
			cells := []string{row.Name, row.Env, row.Label}
			for _, v := range row.Values {
				cells = append(cells, overheadOf(v))
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}

// overheadRows are the shared cells that are not the baseline: where each
// study's own container overhead can be put side by side.
func overheadRows(c *report.Comparison) []report.CompareRow {
	var out []report.CompareRow
	for _, row := range c.Rows {
		for _, v := range row.Values {
			if v.OverheadPct != nil {
				out = append(out, row)
				break
			}
		}
	}
	return out
}

// WriteCompareMarkdown prints a comparison as WriteCompareTable does, in
// Markdown, with the differences beyond noise in bold.
func WriteCompareMarkdown(w io.Writer, c *report.Comparison) error {
	w = termtext.Wrap(w)
	fmt.Fprintf(w, "# Comparison of %d studies\n\n", len(c.Studies))
	for i, s := range c.Studies {
		fmt.Fprintf(w, "- **%s** = `%s`: %s\n", report.Letter(i), strings.ReplaceAll(s.Label, "`", "'"), report.MarkdownEscape(describeStudy(s)))
	}
	fmt.Fprintln(w)
	if lines := contradictionLines(c); len(lines) > 0 {
		fmt.Fprintf(w, "**%s**\n\n", report.MarkdownEscape(lines[0]))
		for _, line := range lines[1:] {
			fmt.Fprintf(w, "- %s\n", report.MarkdownEscape(strings.TrimSpace(line)))
		}
		fmt.Fprintln(w)
	}
	for _, line := range summaryOf(c) {
		fmt.Fprintln(w, report.MarkdownEscape(line))
	}
	head := compareHead(c, " vs A [95 % CI]")
	fmt.Fprintf(w, "\n| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range c.Rows {
		cells := []string{report.MarkdownEscape(row.Name), report.MarkdownEscape(row.Env), report.MarkdownEscape(row.Label)}
		for _, v := range row.Values {
			cells = append(cells, fmt.Sprintf("%s (%s)", report.FmtValue(v.Mean), report.FmtValue(v.Std)))
		}
		for _, v := range row.Values[1:] {
			d := report.MarkdownEscape(diffText(v))
			if v.BeyondNoise {
				d = "**" + d + "**"
			}
			cells = append(cells, d)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if rows := overheadRows(c); len(rows) > 0 {
		fmt.Fprintf(w, "\n## Container overhead in each study\n\n%% deviation from each study's own %s mean, [95 %% CI].\n\n", report.MarkdownEscape(c.Baseline))
		head = []string{"workload", "env", "metric"}
		for i := range c.Studies {
			head = append(head, report.Letter(i))
		}
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, row := range rows {
			cells := []string{report.MarkdownEscape(row.Name), report.MarkdownEscape(row.Env), report.MarkdownEscape(row.Label)}
			for _, v := range row.Values {
				cells = append(cells, report.MarkdownEscape(overheadOf(v)))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	return nil
}

// contradictionLines are the cells whose verdicts contradict between
// studies of one host, a heading and a line each; none when there are none.
func contradictionLines(c *report.Comparison) []string {
	if len(c.Contradictions) == 0 {
		return nil
	}
	out := []string{fmt.Sprintf("Contradictions: %d cell(s) whose verdicts cannot both be true, though the studies ran on the same host: its state, not the environment, decided at least one of them.", len(c.Contradictions))}
	for _, k := range c.Contradictions {
		out = append(out, fmt.Sprintf("  %s %s in %s: %s %s; %s %s", k.Row, k.Label, k.Env,
			report.Letter(k.Studies[0]), k.Texts[0], report.Letter(k.Studies[1]), k.Texts[1]))
	}
	return out
}

// describeStudy is a compared study in a line: id, name, status, creation and host.
func describeStudy(s report.ComparedStudy) string {
	host := s.CPU
	if s.Hostname != "" {
		host = s.Hostname + ": " + host
	}
	if s.Kernel != "" {
		host += ", kernel " + s.Kernel
	}
	if s.Docker != "" {
		host += ", Docker " + s.Docker
	}
	return fmt.Sprintf("study %d %q (%s, %s) on %s", s.ID, s.Name, s.Status, s.Created, host)
}

// diffText is a study's difference from the reference with its interval.
func diffText(v report.CompareValue) string {
	return pctWithCI(v.DiffPct, "n/a", v.BeyondNoise, v.DiffCI95)
}

// overheadOf is a study's own container overhead with its interval.
func overheadOf(v report.CompareValue) string {
	return pctWithCI(v.OverheadPct, "-", v.Significant, v.OverheadCI95)
}

// pctWithCI is the percentage pct, marked * when marked, with its interval
// ci; none when there is no pct.
func pctWithCI(pct *float64, none string, marked bool, ci []*float64) string {
	if pct == nil {
		return none
	}
	s := report.FmtPct(*pct)
	if marked {
		s += "*"
	}
	if iv, ok := report.PctInterval(ci); ok {
		s += " " + iv
	}
	return s
}

// summaryOf sums up how the studies differ, a line each.
func summaryOf(c *report.Comparison) []string {
	var out []string
	beyond := 0
	for _, row := range c.Rows {
		for _, v := range row.Values[1:] {
			if v.BeyondNoise {
				beyond++
			}
		}
	}
	out = append(out, fmt.Sprintf("%d shared cells; %d of %d differences from A are beyond noise (95%% CI excludes 0, marked *).",
		len(c.Rows), beyond, len(c.Rows)*max(len(c.Studies)-1, 0)))
	for i, n := range c.Unmatched {
		if n > 0 {
			out = append(out, fmt.Sprintf("%s has %d cell(s) that not every other study has; they are left out.", report.Letter(i), n))
		}
	}
	for _, d := range c.Differences {
		out = append(out, "Not the same work: "+termtext.Visible(d.String())+".")
	}
	return out
}

// compareHead is the comparison table's header: the cell, each study's
// mean and each later study against the first, headed with vsA.
func compareHead(c *report.Comparison, vsA string) []string {
	head := []string{"workload", "env", "metric"}
	for i := range c.Studies {
		head = append(head, report.Letter(i)+" mean (std)")
	}
	for i := 1; i < len(c.Studies); i++ {
		head = append(head, report.Letter(i)+vsA)
	}
	return head
}
