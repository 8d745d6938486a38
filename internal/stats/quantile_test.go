package stats

import (
	"math"
	"testing"
)

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
