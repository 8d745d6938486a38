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
