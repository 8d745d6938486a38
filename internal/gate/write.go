package gate

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/boxtax/boxtax/internal/report"
)

// Write prints the gate's result: each rule, then each cell it
// matched with its cost, the cost's 95 % interval, the limit and the
// verdict.
func Write(w io.Writer, g Result) error {
	verdict := "PASS"
	if !g.Passed {
		verdict = fmt.Sprintf("FAIL (%d of %d rules)", g.Failed(), len(g.Rules))
	}
	fmt.Fprintf(w, "\ngate: %s; cost = overhead in the bad direction; FAIL: its 95%% interval lies above the limit; PASS: at or below it; UNDECIDED: it reaches past the limit (%s)\n",
		verdict, map[bool]string{true: "fails: --fail-undecided", false: "passes; --fail-undecided fails it"}[g.FailUndecided])
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, r := range g.Rules {
		// A line without tabs ends tabwriter's columns: each rule's cells
		// align among themselves.
		fmt.Fprintf(tw, "%s: %s (%d checked, %d failed, %d undecided, %d unchecked)\n", plainText(r.Text), strings.ToUpper(r.Status), r.Checked, r.Failed, r.Undecided, r.Unchecked)
		if len(r.Cells) == 0 {
			fmt.Fprintf(tw, "  no cell of the study matches\n")
			continue
		}
		fmt.Fprintf(tw, "  ENV\tWORKLOAD\tLEVELS\tMETRIC\tCOST\t95%% CI\tLIMIT\tRESULT\n")
		for _, c := range r.Cells {
			cost, ci := "-", "-"
			if c.CostPct != nil {
				cost, ci = report.FmtPct(*c.CostPct), fmtInterval(c.CostCI95)
			}
			status := strings.ToUpper(c.Status)
			if c.Note != "" {
				status += ": " + plainText(c.Note)
			}
			fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s%%\t%s\n", c.Env, c.Workload, levelsText(c.Levels), c.Metric, cost, ci,
				strconv.FormatFloat(c.LimitPct, 'g', -1, 64), status)
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if n := g.Undecided(); n > 0 && !g.FailUndecided {
		fmt.Fprintf(w, "%d cell(s) UNDECIDED: not shown to be within their limit; more rounds would tell, and --fail-undecided fails the gate on them\n", n)
	}
	return nil
}

// Undecided is the number of cells no rule could show within or above its
// limit.
func (g Result) Undecided() int {
	n := 0
	for _, r := range g.Rules {
		n += r.Undecided
	}
	return n
}

func fmtInterval(ci []*float64) string {
	if len(ci) != 2 || ci[0] == nil || ci[1] == nil {
		return "none"
	}
	return fmt.Sprintf("[%+.1f, %+.1f]", *ci[0], *ci[1])
}

// levelsText prints the levels of every factor but env, or - when none.
func levelsText(levels map[string]string) string {
	var parts []string
	for k, v := range levels {
		if k != "env" {
			parts = append(parts, plainText(k+"="+v))
		}
	}
	if len(parts) == 0 {
		return "-"
	}
	sort.Strings(parts)
	return strings.Join(parts, " ")
}

// plainText replaces what a terminal would interpret (control characters,
// escapes) so that a rule or a level prints as the text it is.
func plainText(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPrint(r) {
			return r
		}
		return '?'
	}, s)
}
