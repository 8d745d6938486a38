package result

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
)

// TestFocusKeepsWhatTheRoundsLeftCanDecide: the cells a focused round
// measures are the most whose estimates fit FocusSlack times the rounds
// the budget holds for them; dropping a far cell frees rounds for the
// near ones; a cell without an estimate is never chosen.
func TestFocusKeepsWhatTheRoundsLeftCanDecide(t *testing.T) {
	cell := func(name, base string, more int) CellDecision {
		return CellDecision{Row: name, Cell: name, BaselineCell: base, Verdict: stats.Verdict{Decision: stats.Undecided, MoreRounds: more}}
	}
	d := Decisions{Cells: []CellDecision{
		cell("c", "base2", 50), cell("b", "base", 6), cell("a", "base", 2), cell("d", "base", -1),
		{Row: "e", Cell: "e", BaselineCell: "base", Verdict: stats.Verdict{Decision: stats.Costs}},
	}}
	secs := map[string]int{"a": 1, "b": 1, "c": 10, "d": 1, "e": 1, "base": 1, "base2": 1}
	for _, tc := range []struct {
		budget        int // seconds left
		keep, nearest string
	}{
		{1000, "a b base base2 c", ""}, // 14 s a round: 71 rounds hold c's 50
		{40, "a b base", ""},           // 14 s: 2 rounds, not c's 50; 3 s: 13 rounds, b's 6 within 2 x 13
		{5, "a base", ""},              // 3 s: 1 round, not b's 6 in 2 x 1; 2 s: 2 rounds for a's 2
		{1, "", "a base"},              // not even a's round fits: the budget is spent
	} {
		fit := func(cells map[string]bool) int {
			total := 0
			for k := range cells {
				total += secs[k]
			}
			return tc.budget / total
		}
		keep, nearest := d.Focus(fit)
		if got := strings.Join(slices.Sorted(maps.Keys(keep)), " "); got != tc.keep {
			t.Errorf("%d s left: keep %q, want %q", tc.budget, got, tc.keep)
		}
		if got := strings.Join(slices.Sorted(maps.Keys(nearest)), " "); got != tc.nearest {
			t.Errorf("%d s left: nearest %q, want %q", tc.budget, got, tc.nearest)
		}
	}
	// Only cells without an estimate, or none undecided: nothing to focus on.
	only := Decisions{Cells: []CellDecision{cell("d", "base", -1)}}
	if keep, nearest := only.Focus(func(map[string]bool) int { return 100 }); keep != nil || nearest != nil {
		t.Errorf("a cell without an estimate chosen: keep %v, nearest %v", keep, nearest)
	}
}

// TestAnswerIsTheReportsVerdict: runs whose 95 % interval excludes 0 and
// whose 99 % one does not leave the stopping rule undecided, while the
// study's answer where it stops (the report's verdict) is a cost; an
// undecided answer carries the rule's estimate of further rounds, and
// Answers puts each cell's answer in its place.
func TestAnswerIsTheReportsVerdict(t *testing.T) {
	b := []float64{100, 101, 99, 100.5, 99.5}
	reps := []int{0, 1, 2, 3, 4}
	var o Overhead
	var x []float64
	for shift := 0.5; shift < 5; shift += 0.05 { // the least cost that clears 95 %
		x = []float64{100 + shift, 101.5 + shift, 98.5 + shift, 100 + shift, 100 + shift}
		if o = Compare(b, reps, x, reps); o.Across.Overhead.Significant {
			break
		}
	}
	rule, answer := o.ToStop(2), o.Answer(2)
	if rule.Decision != stats.Undecided || answer.Decision != stats.Costs {
		t.Fatalf("rule %v, answer %v (95 %% [%.2f, %.2f], 99 %% [%.2f, %.2f]): want undecided and a cost", rule.Decision, answer.Decision,
			o.Across.Overhead.LoPct, o.Across.Overhead.HiPct, o.Strict.LoPct, o.Strict.HiPct)
	}
	d := Decisions{MarginPct: 2, Cells: []CellDecision{{Row: "r", Verdict: rule, Answer: answer}}}
	if a := d.Answers(); !a.Done || a.Cells[0].Verdict.Decision != stats.Costs || d.Cells[0].Verdict.Decision != stats.Undecided {
		t.Errorf("Answers: done %v, %v; the rule's left %v: want done, a cost, the rule's untouched", a.Done, a.Cells[0].Verdict.Decision, d.Cells[0].Verdict.Decision)
	}
	wide := Compare(b, reps, []float64{95, 105, 100, 98, 103}, reps)
	if v := wide.Answer(2); v.Decision != stats.Undecided || v.MoreRounds != wide.ToStop(2).MoreRounds || v.MoreRounds <= 0 {
		t.Errorf("an undecided answer: %v with %d more rounds, want undecided with the rule's estimate %d", v.Decision, v.MoreRounds, wide.ToStop(2).MoreRounds)
	}
}
