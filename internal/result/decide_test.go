package result

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// TestFocusKeepsWhatTheRoundsLeftCanDecide: the cells a focused round
// measures are the most whose estimates fit FocusSlack times the rounds
// the budget holds for them; dropping a far cell frees rounds for the
// near ones; a cell without an estimate is never chosen; when none fits,
// the nearest is, while the study's maximum leaves it the rounds it needs.
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
		keep, nearest := d.Focus(fit, 100)
		if got := strings.Join(slices.Sorted(maps.Keys(keep)), " "); got != tc.keep {
			t.Errorf("%d s left: keep %q, want %q", tc.budget, got, tc.keep)
		}
		if got := strings.Join(slices.Sorted(maps.Keys(nearest)), " "); got != tc.nearest {
			t.Errorf("%d s left: nearest %q, want %q", tc.budget, got, tc.nearest)
		}
	}
	// Only cells without an estimate, or none undecided: nothing to focus on.
	only := Decisions{Cells: []CellDecision{cell("d", "base", -1)}}
	if keep, nearest := only.Focus(func(map[string]bool) int { return 100 }, 100); keep != nil || nearest != nil {
		t.Errorf("a cell without an estimate chosen: keep %v, nearest %v", keep, nearest)
	}
	// No cell's estimate fits twice the rounds the budget leaves (one round
	// of x and its baseline, 5 wanted): the nearest is measured on while
	// its estimate is within the rounds the maximum leaves, and not past
	// them.
	far := Decisions{Cells: []CellDecision{cell("x", "base", 5), cell("y", "base", 8)}}
	oneRound := func(map[string]bool) int { return 1 }
	for _, tc := range []struct {
		most          int
		keep, nearest string
	}{
		{10, "base x", ""},
		{5, "base x", ""},
		{4, "", "base x"},
	} {
		keep, nearest := far.Focus(oneRound, tc.most)
		if got := strings.Join(slices.Sorted(maps.Keys(keep)), " "); got != tc.keep {
			t.Errorf("%d rounds the maximum leaves: keep %q, want %q", tc.most, got, tc.keep)
		}
		if got := strings.Join(slices.Sorted(maps.Keys(nearest)), " "); got != tc.nearest {
			t.Errorf("%d rounds the maximum leaves: nearest %q, want %q", tc.most, got, tc.nearest)
		}
	}
}

// TestAnswerIsFirm: runs whose 95 % interval lies beyond the margin and
// whose firm one does not are undecided, leaning to a cost, with the
// rounds a firm verdict would take; Counts and Interval say the lean; a
// cost whose firm interval clears the margin is decided, and one within
// the margin is no difference even where it excludes 0.
func TestAnswerIsFirm(t *testing.T) {
	b := []float64{100, 101, 99, 100.5, 99.5}
	reps := []int{0, 1, 2, 3, 4}
	var o Overhead
	for shift := 2.0; shift < 8; shift += 0.05 { // the least cost whose 95 % interval clears ±2 %
		x := []float64{100 + shift, 101.5 + shift, 98.5 + shift, 100 + shift, 100 + shift}
		if o = Compare(b, reps, x, reps); o.Across.Overhead.LoPct > 2 {
			break
		}
	}
	v := o.Answer(2)
	if v.Decision != stats.Undecided || v.Leans != stats.Costs || v.MoreRounds <= 0 || o.Across.Overhead.Firm().LoPct > 2 {
		t.Fatalf("answer %v leaning %v with %d more rounds (95 %% [%.2f, %.2f], firm [%.2f, %.2f]): want undecided, leaning to a cost, with an estimate",
			v.Decision, v.Leans, v.MoreRounds, o.Across.Overhead.LoPct, o.Across.Overhead.HiPct, o.Across.Overhead.Firm().LoPct, o.Across.Overhead.Firm().HiPct)
	}
	if v.LoPct != o.Across.Overhead.LoPct || v.HiPct != o.Across.Overhead.HiPct {
		t.Errorf("the answer's interval [%v, %v], want the 95 %% one [%v, %v]", v.LoPct, v.HiPct, o.Across.Overhead.LoPct, o.Across.Overhead.HiPct)
	}
	d := Decisions{MarginPct: 2, Cells: []CellDecision{{Row: "r", Verdict: v}}}
	if got, want := d.Counts(), "0 of 1 cells decided (0 cost, 0 no difference beyond ±2%); 1 more lean (1 to a cost, 0 to no difference), not firm"; got != want {
		t.Errorf("Counts = %q, want %q", got, want)
	}
	if got := Interval(v); !strings.HasSuffix(got, ", leans to a cost, not firm") {
		t.Errorf("Interval = %q, want it to say the lean", got)
	}
	clear := Compare(b, reps, []float64{110, 111.5, 108.5, 110, 110}, reps)
	if v := clear.Answer(2); v.Decision != stats.Costs || v.Leans != stats.Undecided {
		t.Errorf("a 10 %% cost at a CV of 1 %%: %v leaning %v, want a firm cost", v.Decision, v.Leans)
	}
	var small []float64 // a real 0.8 % cost, measured closely: within ±2 %
	var sb []int
	for i := range 12 {
		small, sb = append(small, 100.8+0.2*float64(i%3-1)), append(sb, i)
	}
	base := make([]float64, 12)
	for i := range base {
		base[i] = 100 + 0.2*float64((i+1)%3-1)
	}
	o = Compare(base, sb, small, sb)
	if v := o.Answer(2); !o.Across.Overhead.Significant || v.Decision != stats.NoDifference {
		t.Errorf("a 0.8 %% cost [%.2f, %.2f]: %v, want no difference beyond ±2 %%: a difference the margin calls negligible",
			o.Across.Overhead.LoPct, o.Across.Overhead.HiPct, v.Decision)
	}
}

// TestDecidedCellStaysDecided: a cell decided at a look keeps that look's
// answer when its runs go on (for another metric of the same runs) and the
// rounds after would leave it undecided; before the study's first look,
// and in a study without looks, all its rounds are judged.
func TestDecidedCellStaysDecided(t *testing.T) {
	var runs []store.Run
	var samples []store.Sample
	wild := []float64{1.3, 0.4, 1.5, 0.3, 1.2, 0.5, 1.4}
	for rep := range 10 {
		for _, env := range []string{"native", "docker-host"} {
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, CellKey: "cpu.prime|env=" + env, Workload: "cpu.prime", Env: env,
				Levels: map[string]string{"env": env}, Rep: rep, Status: store.RunOK})
			v := 1000 * (1 + 0.002*float64(rep%3-1))
			switch {
			case env == "native":
			case rep < 3:
				v *= 0.8 // a clear cost of 20 % in the first three rounds
			default:
				v *= wild[rep-3]
			}
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: v})
		}
	}
	lay := Layout{Baseline: "native", Envs: []string{"native", "docker-host"}, Workloads: []string{"cpu.prime"}, MarginPct: 2}
	judge := func(first int) stats.Verdict {
		lay.FirstRounds = first
		d := Decide(lay, runs, samples, false)
		if len(d.Cells) != 1 {
			t.Fatalf("%d cells judged, want 1", len(d.Cells))
		}
		return d.Cells[0].Verdict
	}
	if v := judge(0); v.Decision != stats.Undecided {
		t.Fatalf("all 10 rounds judged: %v %s, want undecided (the test's premise)", v.Decision, Interval(v))
	}
	v := judge(3)
	if v.Decision != stats.Costs || !(v.Pct < -19 && v.Pct > -21) {
		t.Errorf("looks from round 3: %v %s, want the cost of about 20 %% the third round decided", v.Decision, Interval(v))
	}
	cs := Gather(runs, samples)
	var cell, base *Cell
	for _, c := range cs.List {
		if c.Metric == "events_per_s" {
			if c.Run.Env == "native" {
				base = c
			} else {
				cell = c
			}
		}
	}
	if o, ok := cs.Settled(cell, base, nil, 2, 3); !ok || o.N != 3 {
		t.Errorf("settled (%v) on %d rounds, want 3", ok, o.N)
	}
	// The first look after round 4: the wild fourth round is in it.
	if v := judge(4); v.Decision != stats.Undecided {
		t.Errorf("looks from round 4: %v %s, want undecided: no look had a cost", v.Decision, Interval(v))
	}
}
