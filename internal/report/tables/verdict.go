package tables

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/boxtax/boxtax/internal/report"
)

// How many verdicts of each kind the terminal shows, so that the verdict
// fits one screen: the rest are counted in a "+N more" line.
const (
	shownDecided   = 8 // costs and gains
	shownUndecided = 5
	shownEqual     = 6 // rows named in the no-difference line
)

// moreLine is where the verdicts and warnings a terminal leaves out are.
const moreLine = "boxtax report --format html"

// writeVerdict prints the verdict for a terminal: the costs and gains
// largest first, the rows with no difference in one line, the undecided
// cells with the rounds that would likely decide them; one screen at most.
func writeVerdict(w io.Writer, r *report.Report) error {
	if len(r.Verdicts) == 0 {
		return nil
	}
	if slices.ContainsFunc(r.Verdicts, func(v report.Verdict) bool { return v.Firm }) {
		fmt.Fprintf(w, "verdict, each environment against %s (firm verdicts, which a study run again would likely give too: a cost beyond ±%g%%, or no difference within it; 95%% intervals shown):\n", r.Study.Baseline, r.MarginPct())
	} else {
		fmt.Fprintf(w, "verdict, each environment against %s (95%% intervals; no difference: the whole interval within ±%g%%):\n", r.Study.Baseline, r.MarginPct())
	}
	by := map[string][]report.Verdict{}
	for _, v := range r.Verdicts {
		by[v.Decision] = append(by[v.Decision], v)
	}
	decided := append(append([]report.Verdict{}, by[report.VerdictCosts]...), by[report.VerdictGains]...)
	if err := writeVerdictLines(w, "  ", decided, shownDecided, "costs and gains"); err != nil {
		return err
	}
	if eq := by[report.VerdictNoDifference]; len(eq) > 0 {
		fmt.Fprintf(w, "  no difference beyond ±%g%% (%s): %s\n", r.MarginPct(), cellCount(len(eq)), equalRows(eq))
	}
	if und := by[report.VerdictUndecided]; len(und) > 0 {
		fmt.Fprintf(w, "  undecided (%s): the runs show neither a difference nor its absence within ±%g%%:\n", cellCount(len(und)), r.MarginPct())
		if err := writeVerdictLines(w, "    ", und, shownUndecided, "undecided"); err != nil {
			return err
		}
	}
	fmt.Fprintln(w)
	return nil
}

// writeVerdictLines prints the first shown of vs a line each, indented,
// in columns, and counts the rest, the kind of verdict they are, in one
// line that says where to read them.
func writeVerdictLines(w io.Writer, indent string, vs []report.Verdict, shown int, kind string) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for i, v := range vs {
		if i == shown {
			fmt.Fprintf(tw, "%s+%d more %s: %s\n", indent, len(vs)-shown, kind, moreLine)
			break
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\n", indent, v.Env, v.Row, v.Label, v.Text)
	}
	return tw.Flush()
}

// equalRows names the rows whose cells showed no difference, each with
// its environments, at most shownEqual of them: "cpu.prime events/s
// (docker-bridge, docker-host), cpu.linpack MFLOPS (docker-host) +3 more".
func equalRows(vs []report.Verdict) string {
	var rows []string
	envs := map[string][]string{}
	for _, v := range vs {
		name := v.Row + " " + v.Label
		if _, ok := envs[name]; !ok {
			rows = append(rows, name)
		}
		envs[name] = append(envs[name], v.Env)
	}
	var parts []string
	for i, name := range rows {
		if i == shownEqual {
			parts[len(parts)-1] += fmt.Sprintf(" +%d more", len(rows)-shownEqual)
			break
		}
		parts = append(parts, fmt.Sprintf("%s (%s)", name, strings.Join(envs[name], ", ")))
	}
	return strings.Join(parts, ", ")
}

// writeVerdictMarkdown prints every verdict as a table, in the verdict's
// order.
func writeVerdictMarkdown(w io.Writer, r *report.Report) {
	if len(r.Verdicts) == 0 {
		return
	}
	fmt.Fprintf(w, "## Verdict\n\nEach environment against %s, from the 95 %% interval of the overhead; no difference: the whole interval within ±%g %%.\n\n",
		report.MarkdownEscape(r.Study.Baseline), r.MarginPct())
	fmt.Fprintf(w, "| environment | workload | metric | verdict |\n|---|---|---|---|\n")
	for _, v := range r.Verdicts {
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", report.MarkdownEscape(v.Env), report.MarkdownEscape(v.Row), report.MarkdownEscape(v.Label), report.MarkdownEscape(v.Text))
	}
	fmt.Fprintln(w)
}

// cellCount is "1 cell" or "n cells".
func cellCount(n int) string {
	if n == 1 {
		return "1 cell"
	}
	return fmt.Sprintf("%d cells", n)
}

// decidedSummary counts the verdicts, as an adaptive study's stopping
// rule judges them: "6 of 28 cells (6 costs, 0 gains, 0 no difference
// beyond ±2%); 22 undecided".
func decidedSummary(r *report.Report) string {
	if len(r.Verdicts) == 0 {
		return ""
	}
	n := map[string]int{}
	for _, v := range r.Verdicts {
		n[v.Decision]++
	}
	return fmt.Sprintf("%d of %d cells (%d costs, %d gains, %d no difference beyond ±%g%%); %d undecided",
		len(r.Verdicts)-n[report.VerdictUndecided], len(r.Verdicts), n[report.VerdictCosts], n[report.VerdictGains], n[report.VerdictNoDifference], r.MarginPct(), n[report.VerdictUndecided])
}
