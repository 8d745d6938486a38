package tables

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/termtext"
)

// CellStyler is implemented by a writer that marks the table's cells, as
// the cli's colours on a terminal do: StyleCell returns a cell's text as
// written (c is nil for a column heading). It must add as many runes to
// every cell of the environments' columns, so that the columns stay aligned.
type CellStyler interface {
	StyleCell(c *report.Cell, text string) string
}

// WriteTable prints, for a terminal, the study's heading, the verdict and
// the overhead table.
func WriteTable(w io.Writer, r *report.Report) error {
	w = termtext.Wrap(w)
	fmt.Fprintln(w, heading(r))
	fmt.Fprintln(w)
	if err := writeVerdict(w, r); err != nil {
		return err
	}
	of := ""
	if r.Study.Repetitions.Fewest > 0 {
		of = " of the rounds each cell ran in"
	}
	fmt.Fprintf(w, "%s: mean (sd) over the measured runs; other environments: %% deviation from the %s mean%s (sd); sd: the runs' standard deviation, in the metric's unit; * the 95%% CI of the deviation excludes 0; ~ noisy: sd above %.0f%% of the mean.\n\n",
		r.Study.Baseline, r.Study.Baseline, of, report.NoisyCV*100)
	tw := tabwriter.NewWriter(w, 0, 0, 3, ' ', 0)
	style := func(_ *report.Cell, text string) string { return text }
	if s, ok := w.(CellStyler); ok { // colour on a terminal
		style = s.StyleCell
	}
	heads := make([]string, len(r.Envs()))
	for i, e := range r.Envs() {
		heads[i] = style(nil, e)
	}
	fmt.Fprintf(tw, "workload\tmetric\t%s\n", strings.Join(heads, "\t"))
	for _, row := range r.Rows() {
		cells := make([]string, len(r.Envs()))
		for i, e := range r.Envs() {
			cells[i] = style(row.Cells[e], tableCell(row.Cells[e]))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", row.Name, row.Metric, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, line := range plainCellNotes(r) {
		fmt.Fprintln(w, line)
	}
	writeAttributions(w, r.Attributions)
	writeFootnotes(w, r)
	return nil
}

// heading is the one-line description of the study and its host.
func heading(r *report.Report) string {
	h := r.Host()
	host := fmt.Sprintf("%s, %d CPUs (%s), %.1f GiB, kernel %s", h.Label(), h.CPUs, h.CPUModel,
		float64(h.MemTotalBytes)/(1<<30), h.KernelRelease)
	if d := docker.FactsOf(h); d.Name() != "" {
		host += fmt.Sprintf(", %s (%s)", d.Name(), d.StorageDriver)
	}
	if engines := enginesLine(h, r.Envs()); engines != "" {
		host += "\nengines: " + engines
	}
	if left := report.LeftOutLine(h); left != "" {
		host += "\n" + left
	}
	head := fmt.Sprintf("study %d %q (%s), %s\nhost: %s\nruns: %d measured ok, %d failed, %d pending, %d warm-up",
		r.Study.ID, r.Study.Name, r.Study.Status, r.Study.CreatedAt.Format("2006-01-02 15:04 MST"), host,
		r.Runs.OK, r.Runs.Failed, r.Runs.Pending, r.Runs.Warmup)
	if r.Runs.Disturbed > 0 {
		head += fmt.Sprintf(", %d disturbed (left out: see the warnings)", r.Runs.Disturbed)
	}
	if line := r.ImagesLine(); line != "" {
		head += "\n" + line
	}
	if r.Study.Repetitions.Rounds > 0 {
		head += "\n" + r.Study.Repetitions.String()
	}
	if s := decidedSummary(r); s != "" && r.Study.Repetitions.PrecisionPct > 0 {
		head += "\ndecided: " + s
	}
	if r.PairedIntervals() {
		head += "\noverhead intervals: " + r.Study.Interval
	}
	return head
}

// writeFootnotes prints, below the table, the cells without a spread, the
// warnings (at most report.MaxWarningLines) and the failed runs.
func writeFootnotes(w io.Writer, r *report.Report) {
	writeThinCells(w, r)
	if len(r.Warnings) > 0 {
		fmt.Fprintf(w, "\nwarnings:\n")
		for i, warn := range r.Warnings {
			if i == report.MaxWarningLines {
				fmt.Fprintf(w, "  +%d more: %s\n", len(r.Warnings)-report.MaxWarningLines, moreLine)
				break
			}
			fmt.Fprintf(w, "  %s\n", warn)
		}
	}
	if len(r.Failures) > 0 {
		fmt.Fprintf(w, "\nfailed runs:\n")
		for _, f := range r.Failures {
			warm := ""
			if f.Warmup {
				warm = " (warm-up)"
			}
			fmt.Fprintf(w, "  run %d %s @ %s%s: %s\n", f.Seq+1, f.Workload, f.Env, warm, f.Reason)
		}
	}
	fmt.Fprintln(w)
}

// writeThinCells notes the cells with fewer than two measured runs, which
// have no spread or interval: each by name when there are a few, else one
// line (a study run with --reps 1 has hundreds, all alike).
func writeThinCells(w io.Writer, r *report.Report) {
	var thin []report.Cell
	shown := 0
	for _, c := range r.Cells {
		if c.Secondary {
			continue
		}
		shown++
		if c.N < 2 {
			thin = append(thin, c)
		}
	}
	if len(thin) <= 5 {
		for _, c := range thin {
			fmt.Fprintf(w, "\nnote: %s %s %s%s has %d measured run(s): no spread or interval.", c.Workload, c.Env, c.Label, levelsSuffix(c.Levels), c.N)
		}
		return
	}
	none := 0
	for _, c := range thin {
		if c.N == 0 {
			none++
		}
	}
	fmt.Fprintf(w, "\nnote: %d of %d cells have fewer than 2 measured runs (%d none, %d one): no spread or interval there; more repetitions (--reps) give them.",
		len(thin), shown, none, len(thin)-none)
}

// levelsSuffix is " (k=v, ...)" for a cell's factor levels in name order, "" without any.
func levelsSuffix(levels map[string]string) string {
	if len(levels) == 0 {
		return ""
	}
	keys := slices.Sorted(maps.Keys(levels))
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k + "=" + levels[k]
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// tableCell is one cell of the terminal table: the baseline as mean (sd),
// another environment as % deviation (sd), * when the deviation's 95 %
// interval excludes 0, ~ when the cell is noisy; a cell without a
// deviation as mean (sd) marked abs (plainCellNotes says why).
func tableCell(c *report.Cell) string {
	if c == nil {
		return "-"
	}
	noisy := ""
	if c.Noisy() {
		noisy = "~"
	}
	switch {
	case c.IsBaseline, c.Absolute():
		return fmt.Sprintf("%s%s (sd %s)", report.FmtValue(c.Mean), noisy, report.FmtValue(c.Std))
	case c.OverheadPct == nil:
		return fmt.Sprintf("%s%s (sd %s) abs", report.FmtValue(c.Mean), noisy, report.FmtValue(c.Std))
	}
	star := ""
	if c.Significant {
		star = "*"
	}
	return fmt.Sprintf("%s%s%s (sd %s)", report.FmtPct(*c.OverheadPct), star, noisy, report.FmtValue(c.Std))
}

// plainCellNotes say why cells of other environments show their own
// mean (sd) rather than a deviation: a line per reason, naming the cells.
func plainCellNotes(r *report.Report) []string {
	var reasons, out []string
	rows := map[string][]string{}
	for _, row := range r.Rows() {
		for _, e := range r.Envs() {
			c := row.Cells[e]
			if c == nil || c.IsBaseline || !(c.Absolute() || c.OverheadPct == nil) {
				continue
			}
			why := "an absolute figure (a start-up time), compared as it is"
			if !c.Absolute() {
				why = "abs: no % deviation, " + c.OverheadNote
				if c.OverheadNote == "" {
					why = "abs: no % deviation"
				}
			}
			if _, ok := rows[why]; !ok {
				reasons = append(reasons, why)
			}
			rows[why] = append(rows[why], fmt.Sprintf("%s %s @ %s", report.RowName(c, r.Factors()), c.Label, c.Env))
		}
	}
	for _, why := range reasons {
		out = append(out, fmt.Sprintf("mean (sd) in the metric's unit, %s: %s", why, strings.Join(rows[why], ", ")))
	}
	return out
}
