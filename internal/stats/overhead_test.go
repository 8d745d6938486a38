package stats

import (
	"math"
	"strings"
	"testing"
)

var (
	baselineMs = []float64{100.1, 99.7, 100.4, 100.0, 99.8, 100.2}
	slowerMs   = []float64{104.9, 105.3, 104.6, 105.2, 105.0}
)

func TestOverheadEdgeCases(t *testing.T) {
	nan := math.NaN()
	slowerPct := (105 - Mean(baselineMs)) / Mean(baselineMs) * 100
	tests := []struct {
		name       string
		baseline   []float64
		x          []float64
		level      float64
		wantPct    float64
		wantReason string // a part of the reason
	}{
		{"empty baseline", nil, slowerMs, 0.95, nan, "no finite values in the baseline"},
		{"only NaN in x", baselineMs, []float64{nan}, 0.95, nan, "no finite values to compare"},
		{"zero baseline mean", []float64{-1, 1}, slowerMs, 0.95, nan, "baseline mean is zero"},
		{"one baseline value", []float64{100}, slowerMs, 0.95, 5, "fewer than 2 values in the baseline"},
		{"one value in x", baselineMs, []float64{105}, 0.95, slowerPct, "fewer than 2 values to compare"},
		{"level 1", baselineMs, slowerMs, 1, slowerPct, "confidence level"},
		{"level 95 instead of 0.95", baselineMs, slowerMs, 95, slowerPct, "confidence level"},
		{"baseline mean near zero", []float64{-1, 0.5, 2, -0.5, 1.5}, slowerMs, 0.95, 20900, "not distinguishable from zero"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Overhead(tt.baseline, tt.x, tt.level)
			if !closeOrBothNaN(got.Pct, tt.wantPct, 1e-13) {
				t.Errorf("Pct = %v, want %v", got.Pct, tt.wantPct)
			}
			if !math.IsNaN(got.LoPct) || !math.IsNaN(got.HiPct) || got.Significant {
				t.Errorf("interval [%v, %v], Significant %v; want NaN, NaN, false", got.LoPct, got.HiPct, got.Significant)
			}
			if !strings.Contains(got.Reason, tt.wantReason) {
				t.Errorf("Reason = %q, want it to contain %q", got.Reason, tt.wantReason)
			}
		})
	}
}

func TestOverheadConstantSamples(t *testing.T) {
	tests := []struct {
		name            string
		baseline, x     []float64
		wantPct         float64
		wantSignificant bool
	}{
		// No test exists for two constant samples (R's t.test stops): a
		// difference is shown, never marked significant (issue 15 item 11).
		{"different", []float64{4, 4, 4}, []float64{5, 5}, 25, false},
		{"equal", []float64{4, 4}, []float64{4, 4, 4}, 0, false},
		{"negative baseline", []float64{-4, -4}, []float64{-5, -5}, 25, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Overhead(tt.baseline, tt.x, 0.95)
			if got.Pct != tt.wantPct || got.LoPct != tt.wantPct || got.HiPct != tt.wantPct {
				t.Errorf("Pct [LoPct, HiPct] = %v [%v, %v], want the point %v", got.Pct, got.LoPct, got.HiPct, tt.wantPct)
			}
			if got.Significant != tt.wantSignificant || !math.IsNaN(got.PValue) || got.Reason == "" {
				t.Errorf("Significant %v, PValue %v, Reason %q", got.Significant, got.PValue, got.Reason)
			}
		})
	}
}

func TestOverheadInterval(t *testing.T) {
	got := Overhead(baselineMs, slowerMs, 0.95)
	if got.Reason != "" || !got.Significant || !(got.LoPct < got.Pct && got.Pct < got.HiPct) || !(got.PValue < 1e-6) {
		t.Fatalf("Overhead = %+v", got)
	}
	t.Run("the ends solve Fieller's quadratic", func(t *testing.T) {
		xb, xx := Mean(baselineMs), Mean(slowerMs)
		vb := Std(baselineMs) * Std(baselineMs) / float64(len(baselineMs))
		vx := Std(slowerMs) * Std(slowerMs) / float64(len(slowerMs))
		tq := StudentTQuantile(0.975, got.DF)
		for _, end := range []float64{got.LoPct, got.HiPct} {
			rho := 1 + end/100
			residual := rho*rho*(xb*xb-tq*tq*vb) - 2*rho*xb*xx + (xx*xx - tq*tq*vx)
			if math.Abs(residual) > 1e-9*xx*xx {
				t.Errorf("end %v%% leaves residual %v", end, residual)
			}
		}
	})
	t.Run("a wider level gives a wider interval", func(t *testing.T) {
		wide := Overhead(baselineMs, slowerMs, 0.99)
		if !(wide.LoPct < got.LoPct && wide.HiPct > got.HiPct) {
			t.Errorf("99 %% [%v, %v] not around 95 %% [%v, %v]", wide.LoPct, wide.HiPct, got.LoPct, got.HiPct)
		}
	})
	t.Run("a constant baseline scales the interval of x", func(t *testing.T) {
		r := Overhead([]float64{100, 100, 100}, slowerMs, 0.95)
		half := StudentTQuantile(0.975, float64(len(slowerMs)-1)) * Std(slowerMs) / math.Sqrt(float64(len(slowerMs)))
		check(t, "LoPct", r.LoPct, Mean(slowerMs)-half-100, 1e-13)
		check(t, "HiPct", r.HiPct, Mean(slowerMs)+half-100, 1e-13)
	})
	t.Run("non-finite values are left out", func(t *testing.T) {
		r := Overhead(append([]float64{math.NaN()}, baselineMs...), append(slowerMs, math.Inf(1)), 0.95)
		if r != got {
			t.Errorf("with NaN and Inf added: %+v, want %+v", r, got)
		}
	})
	t.Run("a negative baseline mean", func(t *testing.T) {
		neg := func(xs []float64) []float64 {
			out := make([]float64, len(xs))
			for i, x := range xs {
				out[i] = -x
			}
			return out
		}
		r := Overhead(neg(baselineMs), neg(slowerMs), 0.95)
		check(t, "Pct", r.Pct, got.Pct, 1e-15)
		check(t, "LoPct", r.LoPct, got.LoPct, 1e-13)
		check(t, "HiPct", r.HiPct, got.HiPct, 1e-13)
	})
	t.Run("x constant at zero", func(t *testing.T) {
		r := Overhead(baselineMs, []float64{0, 0, 0}, 0.95)
		if r.Pct != -100 || r.LoPct != -100 || r.HiPct != -100 || r.DF != float64(len(baselineMs)-1) {
			t.Errorf("Overhead = %+v, want the point -100 %%", r)
		}
	})
}

func TestOverheadPValueWithoutInterval(t *testing.T) {
	want := Welch(slowerMs, baselineMs).P
	tests := []struct {
		name     string
		baseline []float64
		level    float64
		want     float64
	}{
		{"invalid level", baselineMs, 95, want},
		{"zero baseline mean", []float64{-1, 1, 0}, 0.95, Welch(slowerMs, []float64{-1, 1, 0}).P},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Overhead(tt.baseline, slowerMs, tt.level)
			if math.IsNaN(got.PValue) || got.PValue != tt.want {
				t.Errorf("PValue = %v, want %v", got.PValue, tt.want)
			}
		})
	}
}
