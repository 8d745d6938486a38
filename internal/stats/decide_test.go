package stats

import (
	"math"
	"math/rand/v2"
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

// TestDecideToStop: the stopping rule takes a cost only when the stricter
// interval excludes 0 too; no difference as Decide has it; a cell whose
// 95 % interval excludes 0 and whose 99 % one does not is undecided, with
// the rounds until the stricter one would exclude 0, and keeps the 95 %
// figures.
func TestDecideToStop(t *testing.T) {
	at := func(level, pct, hw float64) OverheadResult {
		return OverheadResult{Level: level, Pct: pct, LoPct: pct - hw, HiPct: pct + hw, DF: 8, Significant: pct-hw > 0 || pct+hw < 0}
	}
	for _, tc := range []struct {
		name        string
		r, strict   OverheadResult
		want        Decision
		moreAtLeast int
	}{
		{"both exclude 0: a cost", at(0.95, 10, 4), at(0.99, 10, 6), Costs, 0},
		{"within the margin: no difference", at(0.95, 0.5, 1), at(0.99, 0.5, 1.5), NoDifference, 0},
		{"only the 95 % excludes 0: not yet", at(0.95, 3, 2.5), at(0.99, 3, 3.6), Undecided, 1},
		{"neither: undecided as before", at(0.95, 3, 5), at(0.99, 3, 7), Undecided, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := DecideToStop(tc.r, tc.strict, 9, 2)
			if v.Decision != tc.want {
				t.Fatalf("DecideToStop = %v, want %v", v.Decision, tc.want)
			}
			if v.LoPct != tc.r.LoPct || v.HiPct != tc.r.HiPct {
				t.Errorf("interval [%g, %g], want the 95 %% one [%g, %g]", v.LoPct, v.HiPct, tc.r.LoPct, tc.r.HiPct)
			}
			if tc.want == Undecided && v.MoreRounds < tc.moreAtLeast {
				t.Errorf("MoreRounds = %d, want an estimate", v.MoreRounds)
			}
		})
	}
	// Not yet a cost: the estimate is the rounds until the 99 % interval
	// excludes 0 (3.6 -> 3 at about 1.5 times the rounds), fewer than a
	// 95 % fit within ±2 % would take (3 is past the margin: never).
	v := DecideToStop(at(0.95, 3, 2.5), at(0.99, 3, 3.6), 9, 2)
	if v.MoreRounds < 2 || v.MoreRounds > 10 {
		t.Errorf("MoreRounds = %d, want a few rounds (the 99 %% half-width 3.6 narrowing to 3)", v.MoreRounds)
	}
}

// TestMoreRoundsForAnUnboundedInterval: a baseline too noisy at 3 rounds
// to be told from zero (disk.seq read here: Fieller's set unbounded) gets
// an estimate of the rounds that bound and decide it, and the estimate
// holds: samples of that many rounds, drawn with the same means and
// spreads, are decided about half the time (a central estimate). Without an interval's
// variances, with a zero baseline, or when the halves lie apart there is
// still no estimate.
func TestMoreRoundsForAnUnboundedInterval(t *testing.T) {
	b, x := []float64{100, 1000, 1900}, []float64{110, 120, 130} // means 1000 and 120, -88 %
	r := Overhead(b, x, 0.95)
	if finiteInterval(r) {
		t.Fatalf("the interval is bounded (%+v): the case needs an unbounded one", r)
	}
	v := DecideToStop(r, Overhead(b, x, CostStopLevel), 3, 2)
	if v.Decision != Undecided || v.MoreRounds <= 0 || v.MoreRounds >= MaxMoreRounds {
		t.Fatalf("verdict %+v: want undecided with an estimate of further rounds", v)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	draw := func(n int, mean, sd float64) []float64 {
		out := make([]float64, n)
		for i := range out {
			out[i] = mean + sd*rng.NormFloat64()
		}
		return out
	}
	const trials = 2000
	decided := 0
	m := 3 + v.MoreRounds
	for range trials {
		bs, xs := draw(m, 1000, 900), draw(m, 120, 10)
		if DecideToStop(Overhead(bs, xs, 0.95), Overhead(bs, xs, CostStopLevel), m, 2).Decision != Undecided {
			decided++
		}
	}
	// The estimate is a central one, like those of bounded intervals (the
	// spread staying as measured): about half of the samples of that many
	// rounds decide, and far fewer would if it were short.
	if decided < trials*2/5 {
		t.Errorf("at %d rounds (%d more) %d of %d samples are decided: the estimate is too short", m, v.MoreRounds, decided, trials)
	}
	t.Logf("%d more rounds; at %d, %d of %d samples decided", v.MoreRounds, m, decided, trials)

	nan := math.NaN()
	for _, tc := range []struct {
		name string
		r    OverheadResult
	}{
		{"no variances (too few values)", OverheadResult{Level: 0.95, BaselineMean: 1000, Mean: 120, Pct: -88, LoPct: nan, HiPct: nan, DF: 2}},
		{"a zero baseline", Overhead([]float64{-1, 0, 1}, x, 0.95)},
	} {
		if got := Decide(tc.r, 3, 2).MoreRounds; got != -1 {
			t.Errorf("%s: MoreRounds = %d, want -1", tc.name, got)
		}
	}
	apart := RoundsResult{Overhead: r, HalvesApart: true}
	if got := v.WithHalves(apart).MoreRounds; got != -1 {
		t.Errorf("halves apart: MoreRounds = %d, want -1", got)
	}
}

// TestMoreRoundsNoisyBaseline checks the estimate for a cell whose
// baseline is too noisy for a bounded interval yet (issue 43): a disk
// cell's baseline with a CV of 60 % at 3 rounds, the container 60 % below
// it. Before, such a cell had no estimate (-1), was never focused on and
// stayed undecided.
func TestMoreRoundsNoisyBaseline(t *testing.T) {
	b := []float64{40, 100, 160} // mean 100, sd 60
	x := []float64{35, 40, 45}   // mean 40, sd 5
	for _, tc := range []struct {
		name string
		v    Verdict
	}{
		{"Decide", Decide(Overhead(b, x, 0.95), len(b), 2)},
		{"DecideToStop", DecideToStop(Overhead(b, x, 0.95), Overhead(b, x, CostStopLevel), len(b), 2)},
		{"paired", DecideToStop(PairedOverhead(b, x, 0.95), PairedOverhead(b, x, CostStopLevel), len(b), 2)},
		{"across rounds", DecideToStop(OverheadAcrossRounds(b, nil, x, nil, 0.95).Overhead, OverheadAcrossRounds(b, nil, x, nil, CostStopLevel).Overhead, len(b), 2)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if finiteInterval(OverheadResult{LoPct: tc.v.LoPct, HiPct: tc.v.HiPct}) {
				t.Fatalf("interval [%g, %g] is bounded: the case needs a baseline not told from 0", tc.v.LoPct, tc.v.HiPct)
			}
			if tc.v.Decision != Undecided || tc.v.MoreRounds <= 0 || tc.v.MoreRounds >= MaxMoreRounds {
				t.Fatalf("verdict %v, MoreRounds %d; want undecided with a finite estimate", tc.v.Decision, tc.v.MoreRounds)
			}
			if tc.v.MoreRounds > 20 {
				t.Errorf("MoreRounds %d: a baseline of CV 60 %% is told from 0 within a few rounds", tc.v.MoreRounds)
			}
		})
	}
}

// TestMoreRoundsNoisyBaselineSimulated checks the estimate against samples
// of the spread it assumed: baselines of n+MoreRounds runs with the mean
// and sd measured are told from 0 (g = t² s²/(n mean²) < 1, a bounded
// Fieller interval) most of the time.
func TestMoreRoundsNoisyBaselineSimulated(t *testing.T) {
	rng := rand.New(rand.NewPCG(43, 1))
	const mean, sd = 100.0, 60.0
	b := []float64{mean - sd, mean, mean + sd}
	v := DecideToStop(Overhead(b, []float64{35, 40, 45}, 0.95), Overhead(b, []float64{35, 40, 45}, CostStopLevel), 3, 2)
	if v.MoreRounds <= 0 || v.MoreRounds >= MaxMoreRounds {
		t.Fatalf("MoreRounds %d, want a finite estimate", v.MoreRounds)
	}
	n := 3 + v.MoreRounds
	const trials = 2000
	bounded := 0
	for range trials {
		xs := make([]float64, n)
		for i := range xs {
			xs[i] = mean + sd*rng.NormFloat64()
		}
		m, s := meanStd(xs)
		q := StudentTQuantile(0.975, float64(n-1))
		if q*q*s*s/(float64(n)*m*m) < 1 {
			bounded++
		}
	}
	if frac := float64(bounded) / trials; frac < 0.75 {
		t.Errorf("at %d rounds the baseline is told from 0 in %.0f%% of samples; want most", n, 100*frac)
	}
}

// TestMoreRoundsWithoutProjection: no estimate when nothing can be
// projected (a zero baseline mean, no spread) or the host changed.
func TestMoreRoundsWithoutProjection(t *testing.T) {
	noisy := Overhead([]float64{40, 100, 160}, []float64{35, 40, 45}, 0.95)
	for _, tc := range []struct {
		name string
		v    Verdict
	}{
		{"zero baseline mean", Decide(Overhead([]float64{-60, 0, 60}, []float64{35, 40, 45}, 0.95), 3, 2)},
		{"zero baseline mean, set by hand", Decide(OverheadResult{Level: 0.95, Pct: -60, LoPct: math.NaN(), HiPct: math.NaN(), DF: 2, Mean: 40, VarMeanB: 1200, VarMeanX: 8}, 3, 2)},
		{"no variance", Decide(OverheadResult{Level: 0.95, Pct: -60, LoPct: math.NaN(), HiPct: math.NaN(), DF: 2, BaselineMean: 100, Mean: 40}, 3, 2)},
		{"NaN baseline mean", Decide(OverheadResult{Level: 0.95, Pct: -60, LoPct: math.NaN(), HiPct: math.NaN(), DF: 2, BaselineMean: math.NaN(), Mean: 40, VarMeanB: 1200}, 3, 2)},
		{"host changed", Decide(noisy, 3, 2).WithHalves(RoundsResult{Overhead: noisy, HalvesApart: true})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.v.Decision != Undecided || tc.v.MoreRounds != -1 {
				t.Errorf("verdict %v, MoreRounds %d; want undecided, -1", tc.v.Decision, tc.v.MoreRounds)
			}
		})
	}
}
