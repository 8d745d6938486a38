package tables

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
)

// fmtPP prints a part in percentage points with its interval.
func fmtPP(p report.AttributionPart) string {
	if p.PP == nil {
		return "n/a"
	}
	return withCI(fmt.Sprintf("%+.1f pp", *p.PP), p.CI95, p.Significant)
}

// withCI is s followed by the interval ci, when it has both ends, and by
// n.s. when the part is not significant.
func withCI(s string, ci []*float64, significant bool) string {
	if lo, hi, ok := report.Ends(ci); ok {
		s += fmt.Sprintf(" [%+.1f, %+.1f]", lo, hi)
	}
	if !significant {
		s += " n.s."
	}
	return s
}

// fmtShare prints a part's share of the whole overhead, "" without one.
func fmtShare(p report.AttributionPart) string {
	if p.SharePct == nil {
		return ""
	}
	return fmt.Sprintf("%.0f%% of it", *p.SharePct)
}

// totalLine is a's full container's overhead with its interval.
func totalLine(a report.Attribution) string {
	return withCI(fmt.Sprintf("%+.1f%%", *a.TotalPct), a.TotalCI95, a.Significant)
}

// attributionName is a's row's workload with its factor levels.
func attributionName(a report.Attribution) string {
	parts := []string{a.Workload}
	for _, k := range slices.Sorted(maps.Keys(a.Levels)) {
		parts = append(parts, k+"="+a.Levels[k])
	}
	return strings.Join(parts, " ")
}

// writeAttributions prints a report's attributions for a terminal.
func writeAttributions(w io.Writer, as []report.Attribution) {
	if len(as) == 0 {
		return
	}
	fmt.Fprintf(w, "\nwhat the overhead is made of: each line switches one mechanism of the container off (or swaps it); pp = percentage points of the %s mean, [95%% CI], n.s. = the interval includes 0 (docs/attribution.md)\n",
		as[0].Baseline)
	for _, a := range as {
		fmt.Fprintf(w, "\n%s, %s, %s: %s vs %s\n", attributionName(a), a.Label, a.Env, totalLine(a), a.Baseline)
		rows := [][3]string{}
		for _, p := range a.Parts {
			rows = append(rows, [3]string{"  " + p.Option + ": " + p.Mechanism, fmtPP(p), fmtShare(p)})
		}
		if a.Rest != nil {
			rows = append(rows, [3]string{"  rest (" + a.Rest.Option + "): namespaces, cgroups, runtime", fmtPP(*a.Rest), fmtShare(*a.Rest)})
		}
		if a.UnexplainedPP != nil {
			rows = append(rows, [3]string{"  unexplained (interactions, noise)", fmt.Sprintf("%+.1f pp", *a.UnexplainedPP), ""})
		}
		for _, p := range a.Others {
			rows = append(rows, [3]string{"  switching to " + p.Option + " (" + p.Mechanism + ") changes it by", fmtPP(p), ""})
		}
		width := 0
		for _, rw := range rows {
			width = max(width, len(rw[0]))
		}
		for _, rw := range rows {
			fmt.Fprintln(w, strings.TrimRight(fmt.Sprintf("%-*s  %-26s %s", width, rw[0], rw[1], rw[2]), " "))
		}
	}
}

// AttributionView is one attribution as the HTML report (package page)
// and the Markdown show it: its lines with their parts, intervals and
// shares as text.
type AttributionView struct {
	Title, Env, Total, Baseline string
	Lines                       []AttributionLine
}

// AttributionLine is one mechanism of an AttributionView.
type AttributionLine struct {
	Mechanism, Option, PP, CI, Share string
	BarPct                           int // |share| capped at 100, for the bar
	Other                            bool
}

// AttributionViews is what a page shows of each attribution.
func AttributionViews(as []report.Attribution) []AttributionView {
	var out []AttributionView
	for _, a := range as {
		v := AttributionView{Title: attributionName(a) + ", " + a.Label, Env: a.Env, Total: totalLine(a), Baseline: a.Baseline}
		line := func(p report.AttributionPart, other bool) AttributionLine {
			l := AttributionLine{Mechanism: p.Mechanism, Option: p.Option, PP: "n/a", Other: other}
			if p.PP != nil {
				l.PP = fmt.Sprintf("%+.1f pp", *p.PP)
				if !p.Significant {
					l.PP += " n.s."
				}
			}
			if lo, hi, ok := report.Ends(p.CI95); ok {
				l.CI = fmt.Sprintf("%+.1f to %+.1f", lo, hi)
			}
			if p.SharePct != nil {
				l.Share = fmt.Sprintf("%.0f %%", *p.SharePct)
				l.BarPct = int(min(100, max(-*p.SharePct, *p.SharePct)) + 0.5)
			}
			return l
		}
		for _, p := range a.Parts {
			v.Lines = append(v.Lines, line(p, false))
		}
		if a.Rest != nil {
			l := line(*a.Rest, false)
			l.Mechanism = "the rest: namespaces, cgroups, runtime"
			v.Lines = append(v.Lines, l)
		}
		if a.UnexplainedPP != nil {
			v.Lines = append(v.Lines, AttributionLine{Mechanism: "unexplained: interactions, noise", PP: fmt.Sprintf("%+.1f pp", *a.UnexplainedPP)})
		}
		for _, p := range a.Others {
			l := line(p, true)
			l.Mechanism = "switching to it (" + p.Mechanism + ")"
			v.Lines = append(v.Lines, l)
		}
		out = append(out, v)
	}
	return out
}

// writeAttributionsMarkdown prints a report's attributions in Markdown.
func writeAttributionsMarkdown(w io.Writer, as []report.Attribution) {
	if len(as) == 0 {
		return
	}
	fmt.Fprintf(w, "\n## What the overhead is made of\n\nEach line switches one mechanism of the container off (or swaps it): its part in percentage points of the %s mean, [95 %% CI], and its share of the whole overhead.\n",
		report.MarkdownEscape(as[0].Baseline))
	for _, v := range AttributionViews(as) {
		fmt.Fprintf(w, "\n**%s**: %s %s vs %s\n\n| mechanism | variant | part | 95 %% CI | share |\n|---|---|---|---|---|\n",
			report.MarkdownEscape(v.Title), report.MarkdownEscape(v.Env), report.MarkdownEscape(v.Total), report.MarkdownEscape(v.Baseline))
		for _, l := range v.Lines {
			fmt.Fprintf(w, "| %s | %s | %s | %s | %s |\n", report.MarkdownEscape(l.Mechanism), report.MarkdownEscape(l.Option), report.MarkdownEscape(l.PP), report.MarkdownEscape(l.CI), report.MarkdownEscape(l.Share))
		}
	}
}
