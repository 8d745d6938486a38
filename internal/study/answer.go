package study

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/study/rounds"
)

// maxUndecidedLines bounds the undecided cells Lines lists one by one.
const maxUndecidedLines = 8

// Lines say how an adaptive study ended, for the run's log: why it
// stopped and its answer (the firm verdicts the rule acted on, the
// report's) and, for every cell left undecided, its interval, why (the
// noise measured on this host: the coefficients of variation of the cell
// and its baseline) and about how much more time would decide it (the
// further rounds stats.Decide estimates, times the measured round).
// budget is the study's (0: none).
func (e AdaptiveEnd) Lines(budget time.Duration) []string {
	d := e.Last
	var out []string
	switch e.Stopped {
	case StoppedDecided:
		return []string{fmt.Sprintf("every cell decided after %d rounds: %s", e.Rounds, d.Summary())}
	case StoppedBudget:
		out = append(out, fmt.Sprintf("stopped after %d rounds: another round (about %s) would pass the budget of %s", e.Rounds, roundDur(e.next), budget))
	case StoppedMax:
		out = append(out, fmt.Sprintf("stopped after %d rounds, the most the study allows (max_repetitions, --max-reps)", e.Rounds))
	case StoppedOutOfReach:
		out = append(out, fmt.Sprintf("stopped after %d rounds: no undecided cell would likely be decided in the rounds --max-reps leaves, so the rest of the time would buy nothing", e.Rounds))
	default:
		return nil
	}
	out = append(out, "the answer, as the report gives it: "+d.Counts())
	und := d.Undecided()
	if len(und) == 0 {
		return out
	}
	out = append(out, fmt.Sprintf("%d of %d cells undecided (neither a cost beyond ±%g%% nor no difference within it firmly shown); the noise measured here is why:", len(und), len(d.Cells), d.MarginPct))
	most := 0 // the most further rounds any undecided cell needs; -1: one cannot be estimated
	for i, c := range und {
		if i < maxUndecidedLines {
			out = append(out, "  "+c.Name()+": "+result.Interval(c.Verdict)+hostChanged(c.Verdict)+"; "+noise(c)+"; "+e.more(c))
		}
		switch m := c.Verdict.MoreRounds; {
		case m < 0 || m >= stats.MaxMoreRounds || most < 0:
			most = -1
		default:
			most = max(most, m)
		}
	}
	if len(und) > maxUndecidedLines {
		out = append(out, fmt.Sprintf("  and %d more (boxtax report lists every cell)", len(und)-maxUndecidedLines))
	}
	if round := e.roundOf(und...); most > 0 && round > 0 {
		// A new run does again what this one did, then rounds of these
		// cells; one more of them for the estimate's own spread.
		need := time.Duration(most) * round
		args := "--budget " + roundDur(e.Spent+need+round).String()
		if total := e.Rounds + most; e.Max > 0 && total > e.Max {
			args += fmt.Sprintf(" --max-reps %d", min(total, rounds.MaxAdaptiveRepetitions))
		}
		out = append(out, fmt.Sprintf("about %d more rounds (%s) would likely decide them all: a new run with %s", most, roundDur(need), args))
	}
	return out
}

// hostChanged says that an undecided cell's halves disagree
// (stats.Verdict.HostChanged).
func hostChanged(v stats.Verdict) string {
	if v.HostChanged {
		return " (" + v.HostChangedText() + ")"
	}
	return ""
}

// noise is a cell's spread and its baseline's, in words.
func noise(c result.CellDecision) string {
	s := "noise: CV " + pct(c.CVPct)
	if !math.IsNaN(c.BaselineCVPct) {
		s += " (baseline " + pct(c.BaselineCVPct) + ")"
	}
	return s
}

func pct(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "n/a"
	}
	if v = math.Abs(v); v >= 10 {
		return fmt.Sprintf("%.0f%%", v)
	}
	return fmt.Sprintf("%.2g%%", v)
}

// roundOf is the time of a round of cells and their baselines, as their
// runs took in this process; RoundTime when their cells are not known.
func (e AdaptiveEnd) roundOf(cells ...result.CellDecision) time.Duration {
	if e.times == nil || slices.ContainsFunc(cells, func(c result.CellDecision) bool { return c.Cell == "" }) {
		return e.RoundTime
	}
	return e.times.round(result.RunCells(cells))
}

// more is about how much longer a cell needs: its rounds, each a run of
// the cell and one of its baseline.
func (e AdaptiveEnd) more(c result.CellDecision) string {
	round := e.roundOf(c)
	switch m := c.Verdict.MoreRounds; {
	case m < 0:
		return "no estimate of the rounds it needs"
	case m >= stats.MaxMoreRounds:
		return fmt.Sprintf("more than %d rounds: not decidable at this noise", stats.MaxMoreRounds)
	case round > 0:
		return fmt.Sprintf("about %d more rounds (%s at %s a round)", m, roundDur(time.Duration(m)*round), roundDur(round))
	default:
		return fmt.Sprintf("about %d more rounds", m)
	}
}

// roundDur rounds a duration for reading: tenths of a second below ten
// seconds, seconds, or minutes past ten.
func roundDur(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Minute:
		return d.Round(time.Minute)
	case d < 10*time.Second:
		return d.Round(100 * time.Millisecond)
	}
	return d.Round(time.Second)
}
