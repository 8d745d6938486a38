package study

import (
	"math"
	"testing"
)

// TestPrecisionLineWording: the one line the adaptive rule logs and the
// report prints: half-widths by size, no interval, the first five misses.
func TestPrecisionLineWording(t *testing.T) {
	for _, tt := range []struct {
		hw   float64
		want string
	}{
		{3.21, "cpu.prime events/s @ docker-bridge (±3.2%)"},
		{12.6, "cpu.prime events/s @ docker-bridge (±13%)"},
		{math.Inf(1), "cpu.prime events/s @ docker-bridge (no interval)"},
	} {
		if got := MissedCell("cpu.prime", "events/s", "docker-bridge", tt.hw); got != tt.want {
			t.Errorf("MissedCell(hw %v) = %q, want %q", tt.hw, got, tt.want)
		}
	}
	for _, tt := range []struct {
		reached, cells int
		missed         []string
		want           string
	}{
		{4, 4, nil, "4 of 4 cells have their overhead's 95% interval within ±2%"},
		{2, 4, []string{"a", "b"}, "2 of 4 cells have their overhead's 95% interval within ±2%; not yet: a, b"},
		{0, 7, []string{"a", "b", "c", "d", "e", "f", "g"}, "0 of 7 cells have their overhead's 95% interval within ±2%; not yet: a, b, c, d, e and 2 more"},
	} {
		if got := PrecisionLine(tt.reached, tt.cells, 2, tt.missed); got != tt.want {
			t.Errorf("PrecisionLine = %q, want %q", got, tt.want)
		}
	}
}
