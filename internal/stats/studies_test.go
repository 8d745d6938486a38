package stats

import (
	"math"
	"testing"
)

// BetweenStudies is DerSimonian and Laird's tau², here worked by hand:
// y = 0, 10 with se 2 and 4: w = 1/4, 1/16; ybar = 2; Q = 0.25*4 +
// 0.0625*64 = 5; sum w - sum w²/sum w = 0.3125 - 0.06640625/0.3125 = 0.1;
// tau² = (5-1)/0.1 = 40.
func TestBetweenStudies(t *testing.T) {
	for _, tt := range []struct {
		name string
		es   []Estimate
		want float64
	}{
		{"worked by hand", []Estimate{{0, 2}, {10, 4}}, 40},
		{"agree within their errors", []Estimate{{0, 2}, {1, 2}, {-1, 2}}, 0},
		{"one study", []Estimate{{5, 1}}, 0},
		{"no error is left out", []Estimate{{0, 2}, {10, 4}, {50, 0}, {math.NaN(), 1}}, 40},
	} {
		if got := BetweenStudies(tt.es); math.Abs(got-tt.want) > 1e-9 {
			t.Errorf("%s: tau² = %g, want %g", tt.name, got, tt.want)
		}
	}
}

// WithBetween adds the studies' variance to each side of the interval,
// keeps the estimate, recomputes Significant, and bounds the lower end
// at -100 % for means that are not negative.
func TestWithBetween(t *testing.T) {
	r := Overhead([]float64{100, 101, 99, 100, 102, 98}, []float64{90, 91, 89, 90, 92, 88}, 0.95)
	own, ok := EstimateOf(r)
	if !ok || math.Abs(own.Pct-r.Pct) > 1e-12 {
		t.Fatalf("EstimateOf(%+v) = %+v, %v", r, own, ok)
	}
	if back := r.WithBetween(0); back != r {
		t.Errorf("tau² 0 changed the interval: %+v", back)
	}
	w := r.WithBetween(25) // 5 points between studies
	half := func(o OverheadResult) (float64, float64) { return o.Pct - o.LoPct, o.HiPct - o.Pct }
	lo0, hi0 := half(r)
	lo1, hi1 := half(w)
	q := r.quantile()
	if w.Pct != r.Pct || math.Abs(lo1-math.Hypot(lo0, 5*q)) > 1e-9 || math.Abs(hi1-math.Hypot(hi0, 5*q)) > 1e-9 {
		t.Errorf("widened %+v from %+v: half-widths %g, %g", w, r, lo1, hi1)
	}
	if !r.Significant || w.Significant {
		t.Errorf("a -10 %% cost over studies that scatter by 5 points: significant %v, then %v (want true, then false)", r.Significant, w.Significant)
	}
	if far := r.WithBetween(1e6); far.LoPct != MinPct {
		t.Errorf("lower end %g, want %g (the means are positive)", far.LoPct, MinPct)
	}
	nan := OverheadResult{Level: 0.95, Pct: 1, LoPct: math.NaN(), HiPct: math.NaN()}
	if _, ok := EstimateOf(nan); ok {
		t.Error("an estimate from no interval")
	}
	if got := nan.WithBetween(4); !math.IsNaN(got.LoPct) {
		t.Errorf("an interval from none: %+v", got)
	}
}
