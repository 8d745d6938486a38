package stats

import (
	"math"
	"testing"
)

// The throughput interval of issue 28, [-165.5 %, +384.6 %]: two runs on
// each side, the baseline's mean barely told from zero by a t of 12.7 (one
// degree of freedom). The ratio of two non-negative means is not negative:
// the lower end is cut at -100 %, the upper one stays.
func TestOverheadOfNonNegativeValuesStopsAtMinus100(t *testing.T) {
	b, x := []float64{100, 108.1}, []float64{161.5, 215.6}
	// Fieller's roots as they are, before the cut.
	mb, sb := meanStd(b)
	mx, sx := meanStd(x)
	vb, vx := sb*sb/2, sx*sx/2
	df := welchSatterthwaite(vx, 2, (mx/mb)*(mx/mb)*vb, 2)
	lo, hi, ok := fiellerRoots(mb, vb, mx, vx, StudentTQuantile(0.975, df))
	if !ok || math.Abs(lo*100+165.5) > 0.05 || math.Abs(hi*100-384.6) > 0.05 {
		t.Fatalf("Fieller's roots [%.1f, %.1f] %%, want the issue's [-165.5, +384.6]", lo*100, hi*100)
	}
	for _, tc := range []struct {
		name string
		r    OverheadResult
	}{
		{"unpaired", Overhead(b, x, 0.95)},
		{"paired", PairedOverhead([]float64{100, 108.1}, []float64{215.6, 161.5}, 0.95)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.r.LoPct != MinPct || !tc.r.LoBounded {
				t.Errorf("lower end %v (bounded %v), want -100", tc.r.LoPct, tc.r.LoBounded)
			}
			if tc.r.Significant || !(tc.r.HiPct > tc.r.Pct) {
				t.Errorf("%+v: the upper end must stay and 0 stays inside", tc.r)
			}
		})
	}
	if r := Overhead(b, x, 0.95); math.Abs(r.HiPct-384.6) > 0.05 {
		t.Errorf("upper end %v, want +384.6 as Fieller has it", r.HiPct)
	}
}

// A sample with a negative value may have a negative mean: its ratio is not
// bounded, and Fieller's interval stays as it is.
func TestOverheadOfSignedValuesIsNotCut(t *testing.T) {
	r := Overhead([]float64{100, 108.1}, []float64{-161.5, 215.6}, 0.95)
	if r.LoBounded || !(r.LoPct < MinPct) {
		t.Errorf("%+v: a signed sample's interval must not be cut", r)
	}
}
