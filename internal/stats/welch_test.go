package stats

import (
	"math"
	"testing"
)

func TestWelchEdgeCases(t *testing.T) {
	nan := math.NaN()
	tests := []struct {
		name           string
		a, b           []float64
		wantDiff       float64
		wantLo, wantHi float64
		wantReason     bool
	}{
		{"one value in a", []float64{1}, []float64{1, 2, 3}, -1, nan, nan, true},
		{"one value in b", []float64{1, 2, 3}, []float64{5}, -3, nan, nan, true},
		{"empty a", nil, []float64{1, 2}, nan, nan, nan, true},
		{"only NaN in b", []float64{1, 2}, []float64{nan, nan}, nan, nan, nan, true},
		{"both constant", []float64{2, 2, 2}, []float64{1, 1}, 1, 1, 1, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Welch(tt.a, tt.b)
			if !sameFloat(got.MeanDiff, tt.wantDiff) || !sameFloat(got.DiffLo, tt.wantLo) || !sameFloat(got.DiffHi, tt.wantHi) {
				t.Errorf("MeanDiff, DiffLo, DiffHi = %v, %v, %v; want %v, %v, %v",
					got.MeanDiff, got.DiffLo, got.DiffHi, tt.wantDiff, tt.wantLo, tt.wantHi)
			}
			if !math.IsNaN(got.T) || !math.IsNaN(got.DF) || !math.IsNaN(got.P) {
				t.Errorf("T, DF, P = %v, %v, %v; want NaN", got.T, got.DF, got.P)
			}
			if (got.Reason != "") != tt.wantReason {
				t.Errorf("Reason = %q", got.Reason)
			}
		})
	}
}

func TestWelchProperties(t *testing.T) {
	a := []float64{10.2, 9.8, 10.5, 10.1, 9.9}
	b := []float64{11.0, 11.4, 10.7, 11.9}
	ab := Welch(a, b)
	if ab.Reason != "" || ab.Level != 0.95 || ab.NA != 5 || ab.NB != 4 {
		t.Fatalf("Welch(a, b) = %+v", ab)
	}
	t.Run("swapping the samples negates T and the interval", func(t *testing.T) {
		ba := Welch(b, a)
		check(t, "T", ba.T, -ab.T, 1e-15)
		check(t, "P", ba.P, ab.P, 1e-15)
		check(t, "DiffLo", ba.DiffLo, -ab.DiffHi, 1e-15)
	})
	t.Run("non-finite values are left out", func(t *testing.T) {
		dirty := Welch(append([]float64{math.NaN(), math.Inf(1)}, a...), b)
		if dirty.NA != 5 || dirty.T != ab.T || dirty.P != ab.P {
			t.Errorf("with NaN and Inf added: %+v, want %+v", dirty, ab)
		}
	})
	t.Run("the interval excludes 0 exactly when P < 0.05", func(t *testing.T) {
		excludes := ab.DiffLo > 0 || ab.DiffHi < 0
		if excludes != (ab.P < 0.05) {
			t.Errorf("interval [%v, %v] but P = %v", ab.DiffLo, ab.DiffHi, ab.P)
		}
	})
	t.Run("one constant sample is allowed", func(t *testing.T) {
		r := Welch([]float64{3, 3, 3}, b)
		if r.Reason != "" || math.IsNaN(r.P) {
			t.Errorf("Welch with a constant sample = %+v", r)
		}
		check(t, "DF", r.DF, float64(len(b)-1), 1e-15)
	})
}
