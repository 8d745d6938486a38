package tables

import (
	"fmt"
	"io"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
)

// texPct prints a signed percentage in math mode, with a star when the
// interval excludes zero.
func texPct(p float64, star bool) string {
	s := fmt.Sprintf("%+.1f", p)
	if star {
		return "$" + s + `\%^{*}$`
	}
	return "$" + s + `\%$`
}

// WriteLaTeX prints booktabs tables to \input into a paper: the overhead
// table in the seed studies' layout, then every deviation with its 95 %
// interval and p-value. It needs \usepackage{booktabs}; warnings and failed
// runs follow as comments, for the author rather than the reader.
func WriteLaTeX(w io.Writer, r *report.Report) error {
	label := fmt.Sprintf("boxtax-study-%d", r.Study.ID)
	fmt.Fprintf(w, "%% boxtax report of study %d (%s); needs \\usepackage{booktabs}.\n", r.Study.ID, report.OneLine(r.Study.Name))
	fmt.Fprintf(w, "%% Every number comes from: boxtax report --study %d --format json\n", r.Study.ID)
	host := report.HostLine(r.Host())
	if left := report.LeftOutLine(r.Host()); left != "" {
		host += "; " + left
	}
	base := report.TeXEscape(r.Study.Baseline)

	cols := "ll" + strings.Repeat("r", len(r.Envs()))
	fmt.Fprintf(w, "\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(w, "\\caption{Study %d: %s. %s: mean (std) over the measured runs; other environments: \\%% deviation from the %s mean (std). $^{*}$: the 95\\,\\%% confidence interval of the deviation excludes 0. Host: %s.%s}\n",
		r.Study.ID, report.TeXEscape(r.Study.Name), base, base, report.TeXEscape(host), report.TeXEscape(caption(r.Study.Repetitions)))
	fmt.Fprintf(w, "\\label{tab:%s}\n\\begin{tabular}{%s}\n\\toprule\nWorkload & Metric", label, cols)
	for _, e := range r.Envs() {
		fmt.Fprintf(w, " & %s", report.TeXEscape(e))
	}
	fmt.Fprintf(w, " \\\\\n\\midrule\n")
	last := ""
	for _, row := range r.Rows() {
		name := row.Name
		if name == last {
			name = ""
		} else if last != "" {
			fmt.Fprintf(w, "\\addlinespace\n")
		}
		last = row.Name
		fmt.Fprintf(w, "%s & %s", report.TeXEscape(name), report.TeXEscape(row.Metric))
		for _, e := range r.Envs() {
			fmt.Fprintf(w, " & %s", texCell(row.Cells[e]))
		}
		fmt.Fprintf(w, " \\\\\n")
	}
	fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n")

	fmt.Fprintf(w, "\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(w, "\\caption{Study %d: deviation of each environment's mean from the %s mean with its 95\\,\\%% confidence interval (Fieller) and Welch's $p$; $n$ measured runs.}\n",
		r.Study.ID, base)
	fmt.Fprintf(w, "\\label{tab:%s-ci}\n\\begin{tabular}{lllrrrr}\n\\toprule\nWorkload & Metric & Environment & $n$ & Deviation & 95\\,\\%% CI & $p$ \\\\\n\\midrule\n", label)
	last = ""
	for _, row := range r.Rows() {
		for _, e := range r.Envs() {
			c := row.Cells[e]
			if c == nil || c.IsBaseline || c.Absolute() || c.OverheadPct == nil {
				continue
			}
			key := row.Name + "\x00" + row.Metric
			name, metric := report.TeXEscape(row.Name), report.TeXEscape(row.Metric)
			if key == last {
				name, metric = "", ""
			}
			last = key
			ci := "--"
			if lo, hi, ok := report.Ends(c.OverheadCI95); ok {
				ci = fmt.Sprintf("[$%+.1f$, $%+.1f$]", lo, hi)
			}
			p := "--"
			if c.PValue != nil {
				p = fmt.Sprintf("%.2g", *c.PValue)
			}
			fmt.Fprintf(w, "%s & %s & %s & %d & %s & %s & %s \\\\\n", name, metric, report.TeXEscape(e), c.N, texPct(*c.OverheadPct, c.Significant), ci, p)
		}
	}
	fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	if len(r.Effects) > 0 {
		fmt.Fprintf(w, "\n\\begin{table}[htbp]\n\\centering\n\\caption{Study %d: effect sizes. $\\eta^2$: share of the total variation a term explains; partial $\\eta^2$: its share of what the other terms leave.}\n", r.Study.ID)
		fmt.Fprintf(w, "\\label{tab:%s-effects}\n\\begin{tabular}{lllrrrrr}\n\\toprule\nWorkload & Metric & Term & df & $F$ & $p$ & $\\eta^2$ & partial $\\eta^2$ \\\\\n\\midrule\n", label)
		for _, e := range r.Effects {
			fmt.Fprintf(w, "%s & %s & %s & %g, %g & %s & %s & %s & %s \\\\\n", report.TeXEscape(e.Workload), report.TeXEscape(e.Label), report.TeXEscape(e.Term), e.DF, e.DFResidual,
				optNum("%.3g", e.F), optNum("%.2g", e.P), optNum("%.3f", e.EtaSq), optNum("%.3f", e.PartialEtaSq))
		}
		fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "%% warning: %s\n", report.OneLine(warn))
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "%% failed run %d, %s @ %s: %s\n", f.Seq+1, report.OneLine(f.Workload), report.OneLine(f.Env), report.OneLine(f.Reason))
	}
	return nil
}

// texCell is one cell of the LaTeX table, in the seeds' layout.
func texCell(c *report.Cell) string {
	switch {
	case c == nil:
		return "--"
	case c.IsBaseline, c.Absolute():
		return fmt.Sprintf("%s (%s)", report.FmtValue(c.Mean), report.FmtValue(c.Std))
	case c.OverheadPct == nil:
		return fmt.Sprintf("%s (%s) abs", report.FmtValue(c.Mean), report.FmtValue(c.Std))
	}
	return fmt.Sprintf("%s (%s)", texPct(*c.OverheadPct, c.Significant), report.FmtValue(c.Std))
}

// optNum prints an optional number, or "--" when there is none.
func optNum(format string, v *float64) string {
	if v == nil {
		return "--"
	}
	return fmt.Sprintf(format, *v)
}

// caption is the repetitions r for a table caption: " 3 runs per cell (the
// paper: 10)." or "" when unknown.
func caption(r report.Repetitions) string {
	if r.Rounds == 0 {
		return ""
	}
	runs := "runs"
	if r.Rounds == 1 {
		runs = "run"
	}
	s := fmt.Sprintf(" %d %s per cell", r.Rounds, runs)
	if r.Paper > 0 {
		s += fmt.Sprintf(" (the paper: %d)", r.Paper)
	}
	return s + "."
}
