package stats

import (
	"math"
	"slices"
	"testing"
)

func TestDescribe(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	tests := []struct {
		name string
		xs   []float64
		want Summary
	}{
		{"empty", nil, Summary{Mean: nan, Std: nan, Min: nan, Q1: nan, Median: nan, Q3: nan, Max: nan, CV: nan}},
		{"only non-finite", []float64{nan, inf, -inf}, Summary{NonFinite: 3, Mean: nan, Std: nan, Min: nan, Q1: nan, Median: nan, Q3: nan, Max: nan, CV: nan}},
		{"one value", []float64{7}, Summary{N: 1, Mean: 7, Std: 0, Min: 7, Q1: 7, Median: 7, Q3: 7, Max: 7, CV: 0}},
		{"zero variance", []float64{3, 3, 3}, Summary{N: 3, Mean: 3, Std: 0, Min: 3, Q1: 3, Median: 3, Q3: 3, Max: 3, CV: 0}},
		{"unsorted", []float64{4, 1, 3, 2}, Summary{N: 4, Mean: 2.5, Std: math.Sqrt(5.0 / 3), Min: 1, Q1: 1.75, Median: 2.5, Q3: 3.25, Max: 4, CV: math.Sqrt(5.0/3) / 2.5}},
		{"non-finite left out", []float64{4, nan, 1, inf, 3, -inf, 2}, Summary{N: 4, NonFinite: 3, Mean: 2.5, Std: math.Sqrt(5.0 / 3), Min: 1, Q1: 1.75, Median: 2.5, Q3: 3.25, Max: 4, CV: math.Sqrt(5.0/3) / 2.5}},
		{"zero mean has no CV", []float64{-1, 1}, Summary{N: 2, Mean: 0, Std: math.Sqrt2, Min: -1, Q1: -0.5, Median: 0, Q3: 0.5, Max: 1, CV: nan}},
		{"negative mean gives negative CV", []float64{-1, -3}, Summary{N: 2, Mean: -2, Std: math.Sqrt2, Min: -3, Q1: -2.5, Median: -2, Q3: -1.5, Max: -1, CV: -math.Sqrt2 / 2}},
		{"large offset keeps the spread", []float64{1e9 + 1, 1e9 + 2, 1e9 + 3}, Summary{N: 3, Mean: 1e9 + 2, Std: 1, Min: 1e9 + 1, Q1: 1e9 + 1.5, Median: 1e9 + 2, Q3: 1e9 + 2.5, Max: 1e9 + 3, CV: 1 / (1e9 + 2)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			input := slices.Clone(tt.xs)
			got := Describe(input)
			if !slices.EqualFunc(input, tt.xs, sameFloat) {
				t.Errorf("Describe changed its input to %v", input)
			}
			if got.N != tt.want.N || got.NonFinite != tt.want.NonFinite {
				t.Errorf("N, NonFinite = %d, %d; want %d, %d", got.N, got.NonFinite, tt.want.N, tt.want.NonFinite)
			}
			fields := []struct {
				name      string
				got, want float64
			}{
				{"Mean", got.Mean, tt.want.Mean}, {"Std", got.Std, tt.want.Std},
				{"Min", got.Min, tt.want.Min}, {"Q1", got.Q1, tt.want.Q1},
				{"Median", got.Median, tt.want.Median}, {"Q3", got.Q3, tt.want.Q3},
				{"Max", got.Max, tt.want.Max}, {"CV", got.CV, tt.want.CV},
			}
			for _, f := range fields {
				if !closeOrBothNaN(f.got, f.want, 1e-15) {
					t.Errorf("%s = %v, want %v", f.name, f.got, f.want)
				}
			}
		})
	}
}

func TestMeanStdMedianIgnoreNonFinite(t *testing.T) {
	xs := []float64{math.NaN(), 2, math.Inf(-1), 4, 9}
	if got := Mean(xs); got != 5 {
		t.Errorf("Mean = %v, want 5", got)
	}
	if got := Std(xs); !closeOrBothNaN(got, math.Sqrt(13), 1e-15) {
		t.Errorf("Std = %v, want sqrt(13)", got)
	}
	if got := Median(xs); got != 4 {
		t.Errorf("Median = %v, want 4", got)
	}
	for name, f := range map[string]func([]float64) float64{"Mean": Mean, "Std": Std, "Median": Median} {
		if got := f([]float64{math.NaN()}); !math.IsNaN(got) {
			t.Errorf("%s of no finite values = %v, want NaN", name, got)
		}
	}
}

func TestStdLongSample(t *testing.T) {
	// A million cycles far from zero: the spread must survive the offset.
	const n = 1 << 20
	xs := make([]float64, n)
	for i := range xs {
		xs[i] = 1e12 + float64(i%2) // alternating 0, 1 above the offset
	}
	want := math.Sqrt(0.25 * n / (n - 1))
	if got := Std(xs); !closeOrBothNaN(got, want, 1e-12) {
		t.Errorf("Std = %.17g, want %.17g", got, want)
	}
}

func TestQuantile(t *testing.T) {
	tests := []struct {
		name   string
		sorted []float64
		p      float64
		want   float64
	}{
		{"empty", nil, 0.5, math.NaN()},
		{"p below 0", []float64{1, 2}, -0.1, math.NaN()},
		{"p above 1", []float64{1, 2}, 1.1, math.NaN()},
		{"p NaN", []float64{1, 2}, math.NaN(), math.NaN()},
		{"one value", []float64{5}, 0.3, 5},
		{"p 0 is the minimum", []float64{1, 2, 4}, 0, 1},
		{"p 1 is the maximum", []float64{1, 2, 4}, 1, 4},
		{"on an order statistic", []float64{1, 2, 4}, 0.5, 2},
		{"interpolated", []float64{1, 2, 3, 4}, 0.25, 1.75},
		{"interpolated upper", []float64{1, 2, 3, 4}, 0.9, 3.7},
		{"ties", []float64{5, 5, 5, 6}, 0.5, 5},
		{"negative values", []float64{-4, -2}, 0.75, -2.5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Quantile(tt.sorted, tt.p); !closeOrBothNaN(got, tt.want, 1e-15) {
				t.Errorf("Quantile(%v, %v) = %v, want %v", tt.sorted, tt.p, got, tt.want)
			}
		})
	}
}

func TestMedianDoesNotSortItsInput(t *testing.T) {
	xs := []float64{3, 1, 2}
	if got := Median(xs); got != 2 {
		t.Errorf("Median = %v, want 2", got)
	}
	if xs[0] != 3 || xs[1] != 1 || xs[2] != 2 {
		t.Errorf("Median reordered its input to %v", xs)
	}
}

// closeOrBothNaN reports whether got is within rel of want (relative), or
// both are NaN, or both are the same infinity.
func closeOrBothNaN(got, want, rel float64) bool {
	if math.IsNaN(want) || math.IsInf(want, 0) {
		return sameFloat(got, want)
	}
	return relativeError(got, want) <= rel
}

// sameFloat reports whether a and b are equal or both NaN.
func sameFloat(a, b float64) bool {
	return a == b || (math.IsNaN(a) && math.IsNaN(b))
}
