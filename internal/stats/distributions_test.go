package stats

import (
	"math"
	"testing"
)

func TestDistributionsRejectInvalidArguments(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		got  float64
	}{
		{"StudentTCDF df 0", StudentTCDF(1, 0)},
		{"StudentTCDF df negative", StudentTCDF(1, -2)},
		{"StudentTCDF df NaN", StudentTCDF(1, nan)},
		{"StudentTCDF t NaN", StudentTCDF(nan, 3)},
		{"StudentTQuantile p below 0", StudentTQuantile(-0.1, 3)},
		{"StudentTQuantile p above 1", StudentTQuantile(1.1, 3)},
		{"StudentTQuantile p NaN", StudentTQuantile(nan, 3)},
		{"StudentTQuantile df 0", StudentTQuantile(0.3, 0)},
		{"NormalQuantile p above 1", NormalQuantile(1.5)},
		{"NormalQuantile p NaN", NormalQuantile(nan)},
		{"FCDF d1 0", FCDF(1, 0, 3)},
		{"FSurvival d2 infinite", FSurvival(1, 2, inf)},
		{"FCDF x NaN", FCDF(nan, 2, 3)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !math.IsNaN(tt.got) {
				t.Errorf("got %v, want NaN", tt.got)
			}
		})
	}
}

func TestDistributionsAtTheEdges(t *testing.T) {
	inf := math.Inf(1)
	tests := []struct {
		name      string
		got, want float64
	}{
		{"StudentTCDF at -Inf", StudentTCDF(-inf, 2), 0},
		{"StudentTCDF at +Inf", StudentTCDF(inf, 2), 1},
		{"StudentTCDF at 0", StudentTCDF(0, 0.3), 0.5},
		{"StudentTCDF with infinite df is normal", StudentTCDF(-1.5, inf), NormalCDF(-1.5)},
		{"StudentTQuantile at 0", StudentTQuantile(0, 4), -inf},
		{"StudentTQuantile at 1", StudentTQuantile(1, 4), inf},
		{"StudentTQuantile at 1/2 is exactly 0", StudentTQuantile(0.5, 0.1), 0},
		{"StudentTQuantile beyond the largest float", StudentTQuantile(1e-300, 0.1), -inf},
		{"StudentTQuantile with infinite df is normal", StudentTQuantile(0.975, inf), NormalQuantile(0.975)},
		{"NormalQuantile at 0", NormalQuantile(0), -inf},
		{"NormalQuantile at 1", NormalQuantile(1), inf},
		{"FCDF at 0", FCDF(0, 3, 4), 0},
		{"FSurvival at 0", FSurvival(0, 3, 4), 1},
		{"FCDF at +Inf", FCDF(inf, 3, 4), 1},
		{"FSurvival at +Inf", FSurvival(inf, 3, 4), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !sameFloat(tt.got, tt.want) {
				t.Errorf("got %v, want %v", tt.got, tt.want)
			}
		})
	}
}

// TestClosedForms checks the distributions where they have closed forms.
func TestClosedForms(t *testing.T) {
	for _, x := range []float64{-1e6, -30, -4, -1, -0.2, 0.01, 0.5, 2, 9, 1e3} {
		cauchy, student2 := 0.5+math.Atan(x)/math.Pi, 0.5+x/(2*math.Sqrt(2+x*x))
		if x < -1 { // forms that keep the small tail's digits
			cauchy = math.Atan(-1/x) / math.Pi
			student2 = 1 / (math.Sqrt(2+x*x) * (math.Sqrt(2+x*x) - x))
		}
		check(t, "StudentTCDF df 1", StudentTCDF(x, 1), cauchy, 1e-13)
		check(t, "StudentTCDF df 2", StudentTCDF(x, 2), student2, 1e-13)
	}
	for _, p := range []float64{1e-12, 0.01, 0.3, 0.5 + 1e-9, 0.7, 0.999} {
		cauchy := math.Tan(math.Pi * (p - 0.5)) // p - 0.5 is exact here
		if p < 0.25 {
			cauchy = -1 / math.Tan(math.Pi*p)
		}
		check(t, "StudentTQuantile df 1", StudentTQuantile(p, 1), cauchy, 1e-12)
		check(t, "StudentTQuantile df 2", StudentTQuantile(p, 2), (2*p-1)/math.Sqrt(2*p*(1-p)), 1e-12)
	}
}

// TestRoundTrips checks that the quantiles invert the distribution functions,
// including df far beyond what R computes exactly (above 4e5 R's pt is a
// normal approximation).
func TestRoundTrips(t *testing.T) {
	for _, df := range []float64{0.3, 1, 2.7, 12, 250, 3e4, 1e7, 1e10} {
		for _, p := range []float64{1e-200, 1e-30, 1e-6, 0.02, 0.3, 0.5 - 1e-12, 0.5 + 1e-9, 0.8, 0.99, 1 - 1e-12} {
			q := StudentTQuantile(p, df)
			if math.IsInf(q, 0) {
				continue
			}
			tail := math.Min(p, 1-p)
			got := StudentTCDF(-math.Abs(q), df)
			if tail >= 0.25 {
				got = 1 - 2*StudentTCDF(-math.Abs(q), df) // central probability
				tail = math.Abs(2*p - 1)
			}
			check(t, "StudentTCDF(StudentTQuantile(p))", got, tail, 1e-11)
			if 1-(1-p) == p {
				check(t, "StudentTQuantile symmetry", StudentTQuantile(1-p, df), -q, 1e-15)
			}
		}
	}
	for _, p := range []float64{1e-300, 1e-20, 0.01, 0.3, 0.5, 0.9, 0.975} {
		check(t, "NormalCDF(NormalQuantile(p))", NormalCDF(NormalQuantile(p)), p, 1e-13)
	}
}

// TestLargeDFApproachesNormal checks the large-df path against Fisher's
// expansion F(t) = Φ(t) - φ(t)(t³+t)/(4 df) + O(df⁻²), whose next term is
// below 1e-15 relative at df = 1e11.
func TestLargeDFApproachesNormal(t *testing.T) {
	const df = 1e11
	for _, x := range []float64{-8, -3, -1, 0.5, 2} {
		density := math.Exp(-x*x/2) / math.Sqrt(2*math.Pi)
		want := NormalCDF(x) - density*(x*x*x+x)/(4*df)
		check(t, "StudentTCDF df 1e11", StudentTCDF(x, df), want, 1e-12)
	}
}

// TestIdentities checks relations between the distributions.
func TestIdentities(t *testing.T) {
	for _, df := range []float64{0.7, 3, 45.5, 8e5} {
		for _, x := range []float64{0.01, 0.8, 2.5, 11, 300} {
			// T² with df degrees of freedom is F(1, df).
			check(t, "FSurvival(t², 1, df)", FSurvival(x*x, 1, df), 2*StudentTCDF(-x, df), 1e-12)
			check(t, "FCDF + FSurvival", FCDF(x, df, 3)+FSurvival(x, df, 3), 1, 1e-14)
			check(t, "StudentTCDF symmetry", StudentTCDF(-x, df)+StudentTCDF(x, df), 1, 1e-15)
		}
	}
}

// check reports got against want with a relative tolerance.
func check(t *testing.T, what string, got, want, rel float64) {
	t.Helper()
	if !closeOrBothNaN(got, want, rel) {
		t.Errorf("%s: got %.17g, want %.17g (relative error %.3g)", what, got, want, relativeError(got, want))
	}
}
