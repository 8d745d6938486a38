package page

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
)

// The sections of the page: the glance, the overhead table, each
// workload's descriptive statistics and notes, the warnings.

// costly tells whether a deviation makes things worse.
func costly(c *report.Cell) bool {
	return c.OverheadPct != nil && (*c.OverheadPct < 0) == c.HigherIsBetter
}

// glanceOf sums up the study for the top of the page from its verdicts:
// how many comparisons cost, gain, show no difference or are undecided;
// the largest costs and gains, the workloads with no difference anywhere,
// the undecided cells with the rounds that would decide them, and the
// noisy cells. An undecided cell is never counted as "no difference".
func glanceOf(r *report.Report) glance {
	g := glance{Margin: r.MarginPct(), Comparisons: len(r.Verdicts)}
	allEqual := map[string]bool{}
	var order []string
	for _, v := range r.Verdicts {
		text := v.Subject() + ": " + v.Text
		switch v.Decision {
		case report.VerdictCosts:
			g.Costs = appendUpTo(g.Costs, text, 5, &g.MoreCosts)
		case report.VerdictGains:
			g.Gains = appendUpTo(g.Gains, text, 3, &g.MoreGains)
		case report.VerdictUndecided:
			g.Undecided = appendUpTo(g.Undecided, text, 5, &g.MoreUndecided)
		case report.VerdictNoDifference:
			g.NEqual++
		}
		if _, ok := allEqual[v.Workload]; !ok {
			allEqual[v.Workload] = true
			order = append(order, v.Workload)
		}
		allEqual[v.Workload] = allEqual[v.Workload] && v.Decision == report.VerdictNoDifference
	}
	g.NCosts, g.NGains, g.NUndecided = len(g.Costs)+g.MoreCosts, len(g.Gains)+g.MoreGains, len(g.Undecided)+g.MoreUndecided
	for _, w := range order {
		if allEqual[w] {
			g.Equal = append(g.Equal, w)
		}
	}
	noisy, primary := 0, 0
	for i := range r.Cells {
		if c := &r.Cells[i]; !c.Secondary {
			primary++
			if c.Noisy() {
				noisy++
			}
		}
	}
	if noisy > 0 {
		g.Noisy = fmt.Sprintf("%d of %d", noisy, primary)
	}
	return g
}

// appendUpTo appends s to xs while xs has fewer than n entries, else
// counts it in *more.
func appendUpTo(xs []string, s string, n int, more *int) []string {
	if len(xs) < n {
		return append(xs, s)
	}
	*more++
	return xs
}

// htmlRows is the overhead table, a row per metric and row group.
func htmlRows(r *report.Report) []htmlRow {
	var out []htmlRow
	last := ""
	for _, row := range r.Rows() {
		hr := htmlRow{Name: row.Name, Metric: row.Metric}
		for _, c := range row.Cells {
			hr.Workload = c.Workload
		}
		hr.First = hr.Workload != last
		last = hr.Workload
		for _, e := range r.Envs() {
			hr.Cells = append(hr.Cells, htmlCellOf(row.Cells[e]))
		}
		out = append(out, hr)
	}
	return out
}

// htmlCellOf is one cell of the overhead table: the figure, its interval
// and how to colour it.
func htmlCellOf(c *report.Cell) htmlCell {
	switch {
	case c == nil:
		return htmlCell{Main: "–", Class: "none", Tip: "not measured"}
	case c.IsBaseline || c.Absolute() || c.OverheadPct == nil:
		hc := htmlCell{Main: report.FmtValue(c.Mean), Sub: fmt.Sprintf("(%s) n=%d", report.FmtValue(c.Std), c.N), Class: "base",
			Tip: fmt.Sprintf("mean %s, std %s over %d runs; median %s, quartiles %s to %s", report.FmtValue(c.Mean), report.FmtValue(c.Std), c.N, report.FmtValue(c.Median), report.FmtValue(c.Q1), report.FmtValue(c.Q3))}
		if !c.IsBaseline && c.Absolute() {
			hc.Tip += "; an absolute figure, compared as it is rather than as a ratio to " + c.Baseline
		} else if !c.IsBaseline {
			hc.Tip += "; no deviation: " + c.OverheadNote
		}
		if c.Noisy() {
			hc.Class += " noisy"
		}
		return hc
	}
	hc := htmlCell{Main: report.FmtPct(*c.OverheadPct), Class: "dev", Tip: report.OverheadText(c) + fmt.Sprintf("; mean %s, std %s, n=%d", report.FmtValue(c.Mean), report.FmtValue(c.Std), c.N)}
	ci := "[n/a]"
	if iv, ok := report.PctInterval(c.OverheadCI95); ok {
		ci = iv
	}
	hc.Sub = fmt.Sprintf("%s (%s)", ci, report.FmtValue(c.Std))
	if c.Significant {
		if costly(c) {
			hc.Class += " cost"
		} else {
			hc.Class += " gain"
		}
	}
	if c.Noisy() {
		hc.Class += " noisy"
	}
	return hc
}

// descriptives lists workload wl's cells with their statistics.
func descriptives(r *report.Report, wl string) []descRow {
	var out []descRow
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Workload != wl {
			continue
		}
		name := c.Label
		if sfx := strings.TrimPrefix(report.RowName(c, r.Factors()), c.Workload); sfx != "" {
			name += " ·" + sfx
		}
		cv := "–"
		if c.Mean != 0 && c.N > 1 {
			cv = fmt.Sprintf("%.1f %%", c.Std/math.Abs(c.Mean)*100)
		}
		out = append(out, descRow{Metric: name, Env: c.Env, N: c.N, Mean: report.FmtValue(c.Mean), Std: report.FmtValue(c.Std),
			Min: report.FmtValue(c.Min), Q1: report.FmtValue(c.Q1), Median: report.FmtValue(c.Median), Q3: report.FmtValue(c.Q3), Max: report.FmtValue(c.Max), CV: cv})
	}
	return out
}

// runNotes lists what the measured runs of a workload noted about how they
// did their work, the distinct values per environment.
func runNotes(r *report.Report, wl string) []noteRow {
	vals := map[string]map[string][]string{} // key -> env -> distinct values
	for _, run := range r.StoredRuns() {
		if run.Workload != wl || run.Warmup || run.Status != store.RunOK {
			continue
		}
		for k, v := range run.Notes {
			if k == "warning" || strings.HasSuffix(k, "_warning") {
				continue
			}
			if vals[k] == nil {
				vals[k] = map[string][]string{}
			}
			if !slices.Contains(vals[k][run.Env], v) {
				vals[k][run.Env] = append(vals[k][run.Env], v)
			}
		}
	}
	var out []noteRow
	for _, k := range slices.Sorted(maps.Keys(vals)) {
		nr := noteRow{Key: k}
		for _, e := range r.Envs() {
			nr.Values = append(nr.Values, strings.Join(vals[k][e], "; "))
		}
		out = append(out, nr)
	}
	return out
}

// warnGroups sorts the warnings by kind for the page: what workloads said,
// grouped by message; busy host; noisy cells as a table; outliers.
func warnGroups(r *report.Report) []warnGroup {
	var out []warnGroup
	if len(r.Disturbed) > 0 {
		g := warnGroup{Title: "Disturbed runs, left out of the verdicts",
			Lead: fmt.Sprintf("The monitors saw the host disturbed during these %d measured runs (boxtax run --disturbed gives the limits): their figures are stored but in no cell, interval or verdict.", len(r.Disturbed))}
		for _, d := range r.Disturbed {
			g.Items = append(g.Items, fmt.Sprintf("run %d, %s @ %s: %s", d.Seq+1, d.Workload, d.Env, d.Reason))
		}
		out = append(out, g)
	}
	notes := warnGroup{Title: "What the workloads said about their numbers"}
	subjects := map[string][]string{}
	var messages []string
	for _, w := range r.WarningDetails() {
		if w.Kind != report.WarnNote && w.Kind != report.WarnStorage {
			continue
		}
		if _, ok := subjects[w.Message]; !ok {
			messages = append(messages, w.Message)
		}
		subjects[w.Message] = append(subjects[w.Message], w.Subject)
	}
	for _, m := range messages {
		notes.Items = append(notes.Items, strings.Join(subjects[m], ", ")+": "+m)
	}
	if len(notes.Items) > 0 {
		out = append(out, notes)
	}
	for _, t := range []struct{ kind, title, lead string }{
		{report.WarnBusy, "Busy host", "boxtax waits before each run for the host to be quiet (--settle); these runs started anyway."},
		{report.WarnOutlier, "Outliers", ""},
	} {
		g := warnGroup{Title: t.title, Lead: t.lead}
		for _, w := range r.WarningDetails() {
			if w.Kind == t.kind {
				g.Items = append(g.Items, w.Text)
			}
		}
		if len(g.Items) > 0 {
			out = append(out, g)
		}
	}
	noisy := warnGroup{Title: "Noisy cells",
		Lead: fmt.Sprintf("The runs of these cells spread by more than %.0f %% of their mean (marked ~ in the tables): a deviation smaller than that spread says little. More repetitions (--reps) or a quieter host would help.", report.NoisyCV*100)}
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Noisy() {
			noisy.Noisy = append(noisy.Noisy, noisyRow{Row: report.RowName(c, r.Factors()), Env: c.Env, Metric: c.Label, N: c.N,
				CV: fmt.Sprintf("%.0f %%", c.Std/math.Abs(c.Mean)*100), Min: report.FmtValue(c.Min), Max: report.FmtValue(c.Max)})
		}
	}
	if len(noisy.Noisy) > 0 {
		out = append(out, noisy)
	}
	return out
}
