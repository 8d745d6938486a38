package report

import (
	"fmt"
	"io"
	"strings"
)

func init() { RegisterFormat("latex", writeLaTeX) }

// latexEscaper makes text safe in LaTeX's text mode, in one pass (so the
// braces of \textbackslash{} are not escaped again).
var latexEscaper = strings.NewReplacer(
	`\`, `\textbackslash{}`, `{`, `\{`, `}`, `\}`, `$`, `\$`, `&`, `\&`, `#`, `\#`,
	`^`, `\textasciicircum{}`, `_`, `\_`, `%`, `\%`, `~`, `\textasciitilde{}`,
	`<`, `\textless{}`, `>`, `\textgreater{}`, `|`, `\textbar{}`, "\n", " ", "\r", " ")

// TeXEscape makes text safe in LaTeX: its special characters typeset as
// themselves.
func TeXEscape(s string) string { return latexEscaper.Replace(s) }

// texPct prints a signed percentage in math mode, with a star when the
// interval excludes zero.
func texPct(p float64, star bool) string {
	s := fmt.Sprintf("%+.1f", p)
	if star {
		return "$" + s + `\%^{*}$`
	}
	return "$" + s + `\%$`
}

// writeLaTeX prints booktabs tables to \input into a paper: the overhead
// table in the seed studies' layout, then every deviation with its 95 %
// interval and p-value. It needs \usepackage{booktabs}; warnings and failed
// runs follow as comments, for the author rather than the reader.
func writeLaTeX(w io.Writer, r *Report) error {
	label := fmt.Sprintf("boxtax-study-%d", r.Study.ID)
	fmt.Fprintf(w, "%% boxtax report of study %d (%s); needs \\usepackage{booktabs}.\n", r.Study.ID, OneLine(r.Study.Name))
	fmt.Fprintf(w, "%% Every number comes from: boxtax report --study %d --format json\n", r.Study.ID)
	_, host := HostFacts(r.host)
	base := TeXEscape(r.Study.Baseline)

	cols := "ll" + strings.Repeat("r", len(r.envs))
	fmt.Fprintf(w, "\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(w, "\\caption{Study %d: %s. %s: mean (std) over the measured runs; other environments: \\%% deviation from the %s mean (std). $^{*}$: the 95\\,\\%% confidence interval of the deviation excludes 0. Host: %s.%s}\n",
		r.Study.ID, TeXEscape(r.Study.Name), base, base, TeXEscape(host), TeXEscape(r.Study.Repetitions.caption()))
	fmt.Fprintf(w, "\\label{tab:%s}\n\\begin{tabular}{%s}\n\\toprule\nWorkload & Metric", label, cols)
	for _, e := range r.envs {
		fmt.Fprintf(w, " & %s", TeXEscape(e))
	}
	fmt.Fprintf(w, " \\\\\n\\midrule\n")
	last := ""
	for _, row := range r.rows() {
		name := row.name
		if name == last {
			name = ""
		} else if last != "" {
			fmt.Fprintf(w, "\\addlinespace\n")
		}
		last = row.name
		fmt.Fprintf(w, "%s & %s", TeXEscape(name), TeXEscape(row.metric))
		for _, e := range r.envs {
			fmt.Fprintf(w, " & %s", texCell(row.cells[e]))
		}
		fmt.Fprintf(w, " \\\\\n")
	}
	fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n\n")

	fmt.Fprintf(w, "\\begin{table}[htbp]\n\\centering\n")
	fmt.Fprintf(w, "\\caption{Study %d: deviation of each environment's mean from the %s mean with its 95\\,\\%% confidence interval (Fieller) and Welch's $p$; $n$ measured runs.}\n",
		r.Study.ID, base)
	fmt.Fprintf(w, "\\label{tab:%s-ci}\n\\begin{tabular}{lllrrrr}\n\\toprule\nWorkload & Metric & Environment & $n$ & Deviation & 95\\,\\%% CI & $p$ \\\\\n\\midrule\n", label)
	last = ""
	for _, row := range r.rows() {
		for _, e := range r.envs {
			c := row.cells[e]
			if c == nil || c.IsBaseline || c.absolute || c.OverheadPct == nil {
				continue
			}
			key := row.name + "\x00" + row.metric
			name, metric := TeXEscape(row.name), TeXEscape(row.metric)
			if key == last {
				name, metric = "", ""
			}
			last = key
			ci := "--"
			if lo, hi, ok := ends(c.OverheadCI95); ok {
				ci = fmt.Sprintf("[$%+.1f$, $%+.1f$]", lo, hi)
			}
			p := "--"
			if c.PValue != nil {
				p = fmt.Sprintf("%.2g", *c.PValue)
			}
			fmt.Fprintf(w, "%s & %s & %s & %d & %s & %s & %s \\\\\n", name, metric, TeXEscape(e), c.N, texPct(*c.OverheadPct, c.Significant), ci, p)
		}
	}
	fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	if len(r.Effects) > 0 {
		fmt.Fprintf(w, "\n\\begin{table}[htbp]\n\\centering\n\\caption{Study %d: effect sizes. $\\eta^2$: share of the total variation a term explains; partial $\\eta^2$: its share of what the other terms leave.}\n", r.Study.ID)
		fmt.Fprintf(w, "\\label{tab:%s-effects}\n\\begin{tabular}{lllrrrrr}\n\\toprule\nWorkload & Metric & Term & df & $F$ & $p$ & $\\eta^2$ & partial $\\eta^2$ \\\\\n\\midrule\n", label)
		for _, e := range r.Effects {
			fmt.Fprintf(w, "%s & %s & %s & %g, %g & %s & %s & %s & %s \\\\\n", TeXEscape(e.Workload), TeXEscape(e.Label), TeXEscape(e.Term), e.DF, e.DFResidual,
				optNum("%.3g", e.F), optNum("%.2g", e.P), optNum("%.3f", e.EtaSq), optNum("%.3f", e.PartialEtaSq))
		}
		fmt.Fprintf(w, "\\bottomrule\n\\end{tabular}\n\\end{table}\n")
	}
	for _, warn := range r.Warnings {
		fmt.Fprintf(w, "%% warning: %s\n", OneLine(warn))
	}
	for _, f := range r.Failures {
		fmt.Fprintf(w, "%% failed run %d, %s @ %s: %s\n", f.Seq+1, OneLine(f.Workload), OneLine(f.Env), OneLine(f.Reason))
	}
	return nil
}

// OneLine keeps text on one line, as a LaTeX comment or a table cell must be.
func OneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func texCell(c *Cell) string {
	switch {
	case c == nil:
		return "--"
	case c.IsBaseline, c.absolute:
		return fmt.Sprintf("%s (%s)", FmtValue(c.Mean), FmtValue(c.Std))
	case c.OverheadPct == nil:
		return fmt.Sprintf("%s (%s) abs", FmtValue(c.Mean), FmtValue(c.Std))
	}
	return fmt.Sprintf("%s (%s)", texPct(*c.OverheadPct, c.Significant), FmtValue(c.Std))
}

// optNum prints an optional number, or "--" when there is none.
func optNum(format string, v *float64) string {
	if v == nil {
		return "--"
	}
	return fmt.Sprintf(format, *v)
}
