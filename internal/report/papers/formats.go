package papers

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// Schema names the JSON form of a comparison with published values.
const Schema = "boxtax.paper-comparison/v1"

func paperHeading(r *report.Report) string {
	host := report.HostLine(r.Host())
	return fmt.Sprintf("study %d %q (%s); this machine: %s", r.Study.ID, r.Study.Name, r.Study.Status, host)
}

// WriteTable prints the published tables beside this machine's numbers for a
// terminal (cmps: Compare's).
func WriteTable(w io.Writer, r *report.Report, cmps []report.PaperComparison) error {
	w = termtext.Wrap(w)
	fmt.Fprintln(w, paperHeading(r))
	fmt.Fprintln(w, "Published: baseline as mean (std), containers as % deviation from it (std); a magnitude the paper printed without a sign reads \"50% lower = -50.0%\". This machine: the same, with the 95% CI of the deviation; * it excludes 0. The cell compared says which statistic; difference: ours minus published, per device.")
	paper := ""
	for _, c := range cmps {
		if c.Paper != paper {
			paper = c.Paper
			fmt.Fprintf(w, "\n%s\n  %s\n", report.OneLine(c.Citation), report.OneLine(c.Setup))
			for _, d := range c.DeviceInfo {
				fmt.Fprintf(w, "  %s\n", d)
			}
		}
		fmt.Fprintf(w, "\n%s. %s (%s)\n", c.Table, c.Title, c.Paper)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "column\tconf\t%s\tthis machine\tdifference\tcell compared\tboxtax\n", strings.Join(c.Devices, "\t"))
		for _, row := range c.Rows {
			col, bt := shown(row)
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", col, confName(row), strings.Join(row.Published, "\t"), row.Ours, diffText(row), cellText(row), bt)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "  note: %s\n", report.OneLine(n))
		}
	}
	return nil
}

// shown is the column and the boxtax metric a table prints on the row:
// both on the first row of a column, the metric also on a row that maps to
// one of its own.
func shown(row report.PaperRow) (column, boxtax string) {
	if row.First {
		column, boxtax = row.Column, row.Boxtax
	}
	if row.OwnMapping {
		boxtax = row.Boxtax
	}
	return column, boxtax
}

// diffText is the row's difference from each device's published value,
// in device order: "+0.31 points", "-2.1 / +0.4 % of published"; a dash
// where there is none.
func diffText(row report.PaperRow) string {
	var parts []string
	some := false
	for _, d := range row.Diff {
		if d == nil {
			parts = append(parts, "–")
			continue
		}
		some = true
		parts = append(parts, fmt.Sprintf("%+.2f", *d))
	}
	if !some {
		return "–"
	}
	return strings.Join(parts, " / ") + " " + row.DiffUnit
}

// cellText is the cell compared and the statistic taken of it.
func cellText(row report.PaperRow) string {
	if row.Cell == "" {
		return "–"
	}
	return row.Cell + "; " + row.Statistic
}

func confName(row report.PaperRow) string {
	if row.Env == "" || row.Env == row.Conf {
		return row.Conf
	}
	return row.Conf + " = " + row.Env
}

// WriteMarkdown prints the published tables beside this machine's numbers in
// Markdown.
func WriteMarkdown(w io.Writer, r *report.Report, cmps []report.PaperComparison) error {
	w = termtext.Wrap(w)
	fmt.Fprintf(w, "# Published values beside study %d: %s\n\n", r.Study.ID, report.MarkdownEscape(r.Study.Name))
	host := report.HostLine(r.Host())
	fmt.Fprintf(w, "- this machine: %s\n- published: baseline as mean (std), containers as %% deviation from it (std); a magnitude printed without a sign reads \"50%% lower = -50.0%%\"; this machine: the same with the 95 %% CI of the deviation, ** when it excludes 0; the cell compared says which statistic; difference: ours minus published, per device\n", report.MarkdownEscape(host))
	paper := ""
	for _, c := range cmps {
		if c.Paper != paper {
			paper = c.Paper
			fmt.Fprintf(w, "\n%s\n\n- %s\n", report.MarkdownEscape(report.OneLine(c.Citation)), report.MarkdownEscape(report.OneLine(c.Setup)))
			for _, d := range c.DeviceInfo {
				fmt.Fprintf(w, "- %s\n", report.MarkdownEscape(d))
			}
		}
		fmt.Fprintf(w, "\n## %s. %s\n\n", report.MarkdownEscape(c.Table), report.MarkdownEscape(c.Title))
		head := []string{"column", "configuration"}
		for _, d := range c.Devices {
			head = append(head, report.MarkdownEscape(d)+" (published)")
		}
		head = append(head, "this machine", "difference", "cell compared", "boxtax")
		fmt.Fprintf(w, "| %s |\n|%s\n", strings.Join(head, " | "), strings.Repeat("---|", len(head)))
		for _, row := range c.Rows {
			col, bt := shown(row)
			cells := []string{report.MarkdownEscape(col), report.MarkdownEscape(confName(row))}
			for _, p := range row.Published {
				cells = append(cells, report.MarkdownEscape(p))
			}
			ours := report.MarkdownEscape(row.Ours)
			if row.OursSignificant {
				ours = "**" + ours + "**"
			}
			cells = append(cells, ours, report.MarkdownEscape(diffText(row)), report.MarkdownEscape(cellText(row)), report.MarkdownEscape(bt))
			fmt.Fprintf(w, "| %s |\n", strings.Join(cells, " | "))
		}
		for _, n := range c.Notes {
			fmt.Fprintf(w, "\n%s\n", report.MarkdownEscape(report.OneLine(n)))
		}
	}
	return nil
}

// WriteCSV prints one row per published quantity, configuration and
// device, with this machine's figure beside it: tidy, for plotting.
func WriteCSV(w io.Writer, r *report.Report, cmps []report.PaperComparison) error {
	cw := report.NewCSVWriter(w)
	cw.Write([]string{"paper", "table", "column", "conf", "env", "device", "published", "published_pct", "sign", "boxtax", "status", "statistic", "ours_stat", "ours_mean", "ours_pct", "ours_ci_lo", "ours_ci_hi", "diff", "diff_unit", "cell", "missing"})
	num := func(p *float64) string {
		if p == nil {
			return ""
		}
		return fmt.Sprint(*p)
	}
	for _, c := range cmps {
		for _, row := range c.Rows {
			lo, hi := "", ""
			if len(row.OursCI95) == 2 {
				lo, hi = num(row.OursCI95[0]), num(row.OursCI95[1])
			}
			for i, d := range c.Devices {
				var diff *float64
				if i < len(row.Diff) {
					diff = row.Diff[i]
				}
				cw.Write([]string{c.Paper, c.Table, row.Column, row.Conf, row.Env, d, row.Published[i], num(row.PublishedPct[i]), row.Sign,
					row.Boxtax, row.Status, row.Statistic, num(row.OursStat), num(row.OursMean), num(row.OursPct), lo, hi, num(diff), row.DiffUnit, row.Cell, row.Missing})
			}
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteJSON prints the comparison as its schema (Schema).
func WriteJSON(w io.Writer, r *report.Report, cmps []report.PaperComparison) error {
	doc := struct {
		Schema string                   `json:"schema"`
		Study  report.StudyInfo         `json:"study"`
		Tables []report.PaperComparison `json:"tables"`
	}{Schema, r.Study, cmps}
	return report.WriteJSON(w, doc)
}

// WriteLaTeX prints the published tables beside this machine's numbers as
// booktabs tables.
func WriteLaTeX(w io.Writer, r *report.Report, cmps []report.PaperComparison) error {
	fmt.Fprintf(w, "%% boxtax: published values beside study %d (%s); needs \\usepackage{booktabs}.\n", r.Study.ID, report.OneLine(r.Study.Name))
	host := report.HostLine(r.Host())
	for _, c := range cmps {
		fmt.Fprintf(w, "\\begin{table}[htbp]\n\\centering\n\\caption{%s of %s (%s) beside this machine (%s): baseline as mean (std), containers as \\%% deviation from it (std); this machine with the 95\\,\\%% confidence interval, $^{*}$ when it excludes 0.}\n",
			report.TeXEscape(c.Table), report.TeXEscape(c.Citation), report.TeXEscape(c.Title), report.TeXEscape(host))
		fmt.Fprintf(w, "\\label{tab:%s-%s}\n\\begin{tabular}{ll%srl}\n\\toprule\nColumn & Configuration", report.Slug(c.Paper), report.Slug(c.Table), strings.Repeat("r", len(c.Devices)))
		for _, d := range c.Devices {
			fmt.Fprintf(w, " & %s", report.TeXEscape(d))
		}
		fmt.Fprintf(w, " & This machine & Statistic \\\\\n\\midrule\n")
		for i, row := range c.Rows {
			col := ""
			if row.First {
				col = report.TeXEscape(row.Column)
				if i > 0 {
					fmt.Fprintf(w, "\\addlinespace\n")
				}
			}
			fmt.Fprintf(w, "%s & %s", col, report.TeXEscape(confName(row)))
			for _, p := range row.Published {
				fmt.Fprintf(w, " & %s", report.TeXEscape(p))
			}
			fmt.Fprintf(w, " & %s & %s \\\\\n", report.TeXEscape(row.Ours), report.TeXEscape(orDash(row.Statistic)))
		}
		fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n")
	}
	return nil
}

// orDash is s, or a dash when it is empty.
func orDash(s string) string {
	if s == "" {
		return "–"
	}
	return s
}
