package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

func writeCompareTable(w io.Writer, c *Comparison) error {
	for i, s := range c.Studies {
		fmt.Fprintf(w, "%s = %s: %s\n", letter(i), s.Label, describeStudy(s))
	}
	for _, line := range summaryOf(c) {
		fmt.Fprintln(w, line)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	head := []string{"workload", "env", "metric"}
	for i := range c.Studies {
		head = append(head, letter(i)+" mean (std)")
	}
	for i := 1; i < len(c.Studies); i++ {
		head = append(head, letter(i)+" vs A")
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, row := range c.Rows {
		cells := []string{row.name, row.Env, row.Label}
		for _, v := range row.Values {
			cells = append(cells, fmt.Sprintf("%s (%s)", FmtValue(v.Mean), FmtValue(v.Std)))
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
			head = append(head, letter(i))
		}
		fmt.Fprintln(tw, strings.Join(head, "\t"))
		for _, row := range rows {
			cells := []string{row.name, row.Env, row.Label}
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
func overheadRows(c *Comparison) []CompareRow {
	var out []CompareRow
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

func writeCompareMarkdown(w io.Writer, c *Comparison) error {
	fmt.Fprintf(w, "# Comparison of %d studies\n\n", len(c.Studies))
	for i, s := range c.Studies {
		fmt.Fprintf(w, "- **%s** = `%s`: %s\n", letter(i), strings.ReplaceAll(s.Label, "`", "'"), MarkdownEscape(describeStudy(s)))
	}
	fmt.Fprintln(w)
	for _, line := range summaryOf(c) {
		fmt.Fprintln(w, MarkdownEscape(line))
	}
	head := []string{"workload", "env", "metric"}
	for i := range c.Studies {
		head = append(head, letter(i)+" mean (std)")
	}
	for i := 1; i < len(c.Studies); i++ {
		head = append(head, letter(i)+" vs A [95 % CI]")
	}
	fmt.Fprintf(w, "\n| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
	for _, row := range c.Rows {
		cells := []string{MarkdownEscape(row.name), MarkdownEscape(row.Env), MarkdownEscape(row.Label)}
		for _, v := range row.Values {
			cells = append(cells, fmt.Sprintf("%s (%s)", FmtValue(v.Mean), FmtValue(v.Std)))
		}
		for _, v := range row.Values[1:] {
			d := MarkdownEscape(diffText(v))
			if v.BeyondNoise {
				d = "**" + d + "**"
			}
			cells = append(cells, d)
		}
		fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
	}
	if rows := overheadRows(c); len(rows) > 0 {
		fmt.Fprintf(w, "\n## Container overhead in each study\n\n%% deviation from each study's own %s mean, [95 %% CI].\n\n", MarkdownEscape(c.Baseline))
		head = []string{"workload", "env", "metric"}
		for i := range c.Studies {
			head = append(head, letter(i))
		}
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, row := range rows {
			cells := []string{MarkdownEscape(row.name), MarkdownEscape(row.Env), MarkdownEscape(row.Label)}
			for _, v := range row.Values {
				cells = append(cells, MarkdownEscape(overheadOf(v)))
			}
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
	}
	return nil
}
