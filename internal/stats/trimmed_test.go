package stats

import (
	"encoding/json"
	"math"
	"os"
	"testing"
)

// TestMedianDroppingExtremes checks against values computed by
// testdata/trimmed/make_expected.py (Python's statistics module).
func TestMedianDroppingExtremes(t *testing.T) {
	b, err := os.ReadFile("testdata/trimmed/expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var cases []struct {
		Name   string
		Xs, By []float64
		Median float64
		Kept   int
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			got, kept := MedianDroppingExtremes(c.Xs, c.By)
			if math.Abs(got-c.Median) > 1e-12 || kept != c.Kept {
				t.Errorf("got %v over %d runs, want %v over %d", got, kept, c.Median, c.Kept)
			}
		})
	}
}

func TestMedianDroppingExtremesEdges(t *testing.T) {
	tests := []struct {
		name     string
		xs, by   []float64
		want     float64
		wantKept int
	}{
		{"two runs: nothing dropped", []float64{1, 3}, []float64{1, 3}, 2, 2},
		{"all equal", []float64{4, 4, 4, 4}, []float64{4, 4, 4, 4}, 4, 2},
		{"NaN run left out first", []float64{1, math.NaN(), 2, 3, 100}, []float64{1, 2, 2, 3, 100}, 2.5, 2},
	}
	for _, tt := range tests {
		got, kept := MedianDroppingExtremes(tt.xs, tt.by)
		if got != tt.want || kept != tt.wantKept {
			t.Errorf("%s: got %v over %d, want %v over %d", tt.name, got, kept, tt.want, tt.wantKept)
		}
	}
	if got, _ := MedianDroppingExtremes([]float64{1, 2}, []float64{1}); !math.IsNaN(got) {
		t.Errorf("slices of different lengths: %v, want NaN", got)
	}
}
