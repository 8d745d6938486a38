package stats

import (
	"math"
	"strings"
	"testing"
)

// TestDriftFactor checks the batch-means ratio against values worked by
// hand: blocks of consecutive rounds, their means' mean square over the
// runs' variance.
func TestDriftFactor(t *testing.T) {
	for _, tc := range []struct {
		name string
		xs   []float64
		want float64
	}{
		// two blocks would give MSB = 4 on 1 df over s² = 5/3, a ratio
		// that is noise more often than drift: not estimated below 9.
		{"a trend, 4 rounds", []float64{1, 2, 3, 4}, 1},
		{"a trend, 8 rounds", []float64{1, 2, 3, 4, 5, 6, 7, 8}, 1},
		// blocks [1 2 3] [4 5 6] [7 8 9 10]: means 2, 5, 8.5 around 5.5;
		// MSB = (3(12.25) + 3(0.25) + 4(9)) / 2 = 36.75; s² = 110/12.
		{"a trend, 10 rounds", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}, 36.75 / (110.0 / 12)},
		// blocks [1 2 3] [4 5 6] [7 8 9]: means 2, 5, 8; MSB = 3(9+0+9)/2 = 27; s² = 7.5.
		{"a trend, 9 rounds", []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}, 27 / 7.5},
		// blocks [1 3 2] [4 2 3] [4 1 3]: means 2, 3, 8/3; MSB small against s²: no drift shown.
		{"alternating", []float64{1, 3, 2, 4, 2, 3, 4, 1, 3}, 1},
		{"too few rounds", []float64{1, 2, 3}, 1},
		{"constant", []float64{5, 5, 5, 5, 5}, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := DriftFactor(tc.xs); math.Abs(got-tc.want) > 1e-12 {
				t.Errorf("DriftFactor(%v) = %.15g, want %.15g", tc.xs, got, tc.want)
			}
		})
	}
}

// TestOverheadAcrossRoundsWithoutDriftIsFieller: rounds that do not
// drift leave Fieller's interval as it was.
func TestOverheadAcrossRoundsWithoutDriftIsFieller(t *testing.T) {
	b := []float64{100, 104, 98, 103, 99, 102}
	x := []float64{110, 106, 111, 105, 112, 107} // alternating: no block differs
	reps := []int{0, 1, 2, 3, 4, 5}
	got := OverheadAcrossRounds(b, reps, x, reps, 0.95)
	want := Overhead(b, x, 0.95)
	if got.DriftFactor != 1 || got.Overhead.LoPct != want.LoPct || got.Overhead.HiPct != want.HiPct {
		t.Errorf("factor %g, [%g, %g]; want 1 and Fieller's [%g, %g]", got.DriftFactor, got.Overhead.LoPct, got.Overhead.HiPct, want.LoPct, want.HiPct)
	}
}

// TestOverheadAcrossRoundsWidensByTheDrift: when the container's rounds
// drift, the interval is Fieller's with both squared standard errors
// multiplied by the factor of the paired differences, found here as the
// roots of the quadratic in rho (not the code's form in the deviation d).
func TestOverheadAcrossRoundsWidensByTheDrift(t *testing.T) {
	b := []float64{100, 101, 99, 100, 101, 99, 100, 101, 99}
	x := []float64{80, 82, 81, 90, 91, 89, 100, 99, 101} // three levels: a drift
	reps := []int{8, 7, 6, 5, 4, 3, 2, 1, 0}             // stored in reverse: the order comes from the rounds
	rb, rx := reverse(b), reverse(x)
	got := OverheadAcrossRounds(b, reps, x, reps, 0.95)
	mb, sb := meanStd(rb)
	mx, sx := meanStd(rx)
	diff := make([]float64, len(rb))
	for i := range rb {
		diff[i] = rx[i] - mx/mb*rb[i]
	}
	f := DriftFactor(diff)
	if !(f > 2) || got.DriftFactor != f {
		t.Fatalf("factor %g (want %g, above 2 for three levels)", got.DriftFactor, f)
	}
	vb, vx := f*sb*sb/9, f*sx*sx/9
	df := welchSatterthwaite(vx, 9, (mx/mb)*(mx/mb)*vb, 9)
	tq := StudentTQuantile(0.975, df)
	// rho² (mb² - t² vb) - 2 rho mb mx + (mx² - t² vx) = 0
	a, bb, c := mb*mb-tq*tq*vb, -2*mb*mx, mx*mx-tq*tq*vx
	disc := math.Sqrt(bb*bb - 4*a*c)
	lo, hi := ((-bb-disc)/(2*a)-1)*100, ((-bb+disc)/(2*a)-1)*100
	if math.Abs(got.Overhead.LoPct-lo) > 1e-9 || math.Abs(got.Overhead.HiPct-hi) > 1e-9 {
		t.Errorf("interval [%.12g, %.12g], want [%.12g, %.12g]", got.Overhead.LoPct, got.Overhead.HiPct, lo, hi)
	}
	plain := Overhead(b, x, 0.95)
	if !(got.Overhead.HiPct-got.Overhead.LoPct > plain.HiPct-plain.LoPct) {
		t.Errorf("across rounds [%g, %g] is not wider than Fieller's [%g, %g]", got.Overhead.LoPct, got.Overhead.HiPct, plain.LoPct, plain.HiPct)
	}
}

func reverse(xs []float64) []float64 {
	out := make([]float64, len(xs))
	for i, v := range xs {
		out[len(xs)-1-i] = v
	}
	return out
}

// TestHalvesApartMakeTheVerdictUndecided: a container at -40 % in the
// first half of the rounds and +12 % in the second is a cost of about
// -14 % over all of them (the second half: 112 against 100.25, +11.7 %), but no study run again would find that: the
// verdict is undecided and says why, with both halves.
func TestHalvesApartMakeTheVerdictUndecided(t *testing.T) {
	b := []float64{100, 101, 99, 100, 101, 99, 100, 101}
	x := []float64{60, 61, 59, 60, 112, 113, 111, 112}
	reps := []int{0, 1, 2, 3, 4, 5, 6, 7}
	r := OverheadAcrossRounds(b, reps, x, reps, 0.95)
	if !r.HalvesApart || math.Abs(r.First.Pct+40) > 0.5 || math.Abs(r.Second.Pct-12) > 0.5 {
		t.Fatalf("halves %+.1f [%g, %g] and %+.1f [%g, %g], apart %v; want -40 and +12, apart", r.First.Pct, r.First.LoPct, r.First.HiPct, r.Second.Pct, r.Second.LoPct, r.Second.HiPct, r.HalvesApart)
	}
	v := Decide(r.Overhead, 8, 2).WithHalves(r)
	if v.Decision != Undecided || !v.HostChanged || v.MoreRounds != -1 {
		t.Errorf("verdict %v, host changed %v, more rounds %d; want undecided, changed, -1", v.Decision, v.HostChanged, v.MoreRounds)
	}
	if txt := v.HostChangedText(); !strings.HasPrefix(txt, "the host changed during the study: first half -40.0% [") || !strings.Contains(txt, ", second half +11.7% [") {
		t.Errorf("text %q", txt)
	}
	steady := OverheadAcrossRounds(b, reps, []float64{60, 61, 59, 60, 61, 59, 60, 61}, reps, 0.95)
	if steady.HalvesApart || Decide(steady.Overhead, 8, 2).WithHalves(steady).Decision != Costs {
		t.Errorf("a steady -40%% cost: halves apart %v", steady.HalvesApart)
	}
}
