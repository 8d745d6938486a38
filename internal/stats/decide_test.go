package stats

import (
	"math"
	"testing"
)

func TestDecide(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name          string
		r             OverheadResult
		n             int
		margin        float64
		want          Decision
		moreMin, more int // MoreRounds within [moreMin, more]
	}{
		{"cost excludes zero", OverheadResult{Pct: 12, LoPct: 8, HiPct: 16, Significant: true}, 5, 2, Costs, 0, 0},
		{"gain excludes zero", OverheadResult{Pct: -30, LoPct: -40, HiPct: -20, Significant: true}, 5, 2, Costs, 0, 0},
		{"inside the margin", OverheadResult{Pct: 0.5, LoPct: -1, HiPct: 1.8}, 10, 2, NoDifference, 0, 0},
		{"interval holds 0 but is wide", OverheadResult{Pct: 13.9, LoPct: -5, HiPct: 32.8}, 3, 2, Undecided, 2, 10},
		{"tiny estimate: fit the margin", OverheadResult{Pct: 0.2, LoPct: -3.8, HiPct: 4.2}, 4, 2, Undecided, 12, 20},
		{"no interval", OverheadResult{Pct: 5, LoPct: nan, HiPct: nan}, 1, 2, Undecided, -1, -1},
		{"capped", OverheadResult{Pct: 0.01, LoPct: -50, HiPct: 50}, 3, 2, Undecided, MaxMoreRounds, MaxMoreRounds},
		{"a significant NaN interval is not a cost", OverheadResult{Pct: 5, LoPct: nan, HiPct: nan, Significant: true}, 3, 2, Undecided, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := Decide(tc.r, tc.n, tc.margin)
			if v.Decision != tc.want {
				t.Fatalf("Decide = %v, want %v", v.Decision, tc.want)
			}
			if v.MoreRounds < tc.moreMin || v.MoreRounds > tc.more {
				t.Fatalf("MoreRounds = %d, want within [%d, %d]", v.MoreRounds, tc.moreMin, tc.more)
			}
		})
	}
}

// TestDecideMoreRoundsDecides checks the estimate against the rule it
// predicts: an interval shrunk as 1/sqrt(n) to n+MoreRounds rounds, around
// the same estimate, is decided, and one round fewer is not.
func TestDecideMoreRoundsDecides(t *testing.T) {
	r := OverheadResult{Pct: 6, LoPct: -4, HiPct: 16}
	n := 3
	v := Decide(r, n, 2)
	if v.Decision != Undecided || v.MoreRounds <= 0 {
		t.Fatalf("got %+v", v)
	}
	at := func(m int) Decision {
		hw := 10 * math.Sqrt(float64(n)/float64(m))
		s := OverheadResult{Pct: 6, LoPct: 6 - hw, HiPct: 6 + hw, Significant: 6-hw > 0}
		return Decide(s, m, 2).Decision
	}
	if got := at(n + v.MoreRounds); got == Undecided {
		t.Errorf("at %d rounds still undecided", n+v.MoreRounds)
	}
	if got := at(n + v.MoreRounds - 1); got != Undecided {
		t.Errorf("at %d rounds already %v: the estimate is not the least", n+v.MoreRounds-1, got)
	}
}

// TestDecideMoreRoundsWithDF checks the estimate with the t quantile's
// shrinking as the degrees of freedom grow: the interval that the rule
// predicts at n+MoreRounds rounds (sqrt(n/m) and t(df_m)/t(df_n)) is
// decided and one round fewer is not, and the estimate is well below the
// one that leaves the quantile out.
func TestDecideMoreRoundsWithDF(t *testing.T) {
	const n, est = 3, 6.0
	r := OverheadResult{Level: 0.95, Pct: est, LoPct: est - 10, HiPct: est + 10, DF: 2}
	v := Decide(r, n, 2)
	noDF := r
	noDF.DF = 0
	plain := Decide(noDF, n, 2)
	if v.Decision != Undecided || v.MoreRounds <= 0 || plain.MoreRounds <= 0 {
		t.Fatalf("got %+v and %+v", v, plain)
	}
	if v.MoreRounds*3 > plain.MoreRounds {
		t.Errorf("MoreRounds %d with df, %d without: want the t quantile to count (about 4 times fewer at 3 rounds)", v.MoreRounds, plain.MoreRounds)
	}
	t2 := StudentTQuantile(0.975, 2)
	at := func(m int) Decision {
		hw := 10 * math.Sqrt(float64(n)/float64(m)) * StudentTQuantile(0.975, float64(m-1)) / t2
		s := OverheadResult{Level: 0.95, Pct: est, LoPct: est - hw, HiPct: est + hw, DF: float64(m - 1), Significant: est-hw > 0}
		return Decide(s, m, 2).Decision
	}
	if got := at(n + v.MoreRounds); got == Undecided {
		t.Errorf("at %d rounds still undecided", n+v.MoreRounds)
	}
	if got := at(n + v.MoreRounds - 1); got != Undecided {
		t.Errorf("at %d rounds already %v: the estimate is not the least", n+v.MoreRounds-1, got)
	}
	if v.WithinPct != 16 {
		t.Errorf("WithinPct = %g, want 16 (the larger end's size)", v.WithinPct)
	}
}
