package rt

import (
	"math"
	"testing"
)

// TestCalibrateKeepsTheFastestPass feeds calibrate passes timed by a clock
// the test controls: undisturbed a term takes 2 ns, and interference (a
// busy machine, a slow start) makes some passes slower, never faster. The
// count must come from the undisturbed cost however many passes were slowed,
// so a calibration on a busy machine sizes the work as on an idle one.
func TestCalibrateKeepsTheFastestPass(t *testing.T) {
	const targetNs, undisturbedNs = 1_600_000, 2.0
	tests := []struct {
		name string
		slow func(pass, terms int) float64 // factor on the undisturbed time
	}{
		{name: "undisturbed", slow: func(int, int) float64 { return 1 }},
		{name: "busy but for one probe in 50", slow: func(pass, _ int) float64 {
			if pass%50 == 49 {
				return 1
			}
			return 1.3
		}},
		{name: "slow start", slow: func(pass, _ int) float64 {
			if pass < 1000 {
				return 1.5
			}
			return 1
		}},
		{name: "every full pass disturbed", slow: func(_, terms int) float64 {
			if terms > probeTerms {
				return 2
			}
			return 1
		}},
		{name: "only the last full pass undisturbed", slow: func(pass, terms int) float64 {
			if terms > probeTerms && pass%fullPasses == 0 {
				return 1
			}
			return 1.3
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			passes := 0
			terms, perTermNs := calibrate(targetNs, func(n int) int64 {
				passes++
				return int64(float64(n) * undisturbedNs * tt.slow(passes, n))
			})
			if terms != targetNs/undisturbedNs || perTermNs != undisturbedNs {
				t.Errorf("%d terms of %.3f ns after %d passes, want %d of %.1f ns (the undisturbed cost)",
					terms, perTermNs, passes, int(targetNs/undisturbedNs), undisturbedNs)
			}
		})
	}
}

// TestCalibrateEnds checks the bounds: a clock that hardly moves ends the
// short passes after maxProbes, and a target shorter than a term still
// computes one.
func TestCalibrateEnds(t *testing.T) {
	passes := 0
	terms, perTermNs := calibrate(1000, func(int) int64 { passes++; return 0 })
	if passes != maxProbes+fullPasses || terms <= 0 || perTermNs <= 0 || math.IsInf(perTermNs, 0) {
		t.Errorf("a still clock: %d passes, %d terms of %v ns; want %d passes and a positive count", passes, terms, perTermNs, maxProbes+fullPasses)
	}
	if terms, _ := calibrate(1, func(n int) int64 { return int64(n) * 10 }); terms != 1 {
		t.Errorf("a target shorter than a term: %d terms, want 1", terms)
	}
}

// TestCalibrateOnThisCPU calibrates the real work: whatever the machine is
// doing, the count is positive and, at the least cost a term calibrate saw,
// it fits the target to within one term.
func TestCalibrateOnThisCPU(t *testing.T) {
	var sink float64
	const targetNs = 1_000_000
	terms, perTermNs := calibrate(targetNs, func(n int) int64 { return timeLeibniz(n, &sink) })
	if terms <= 0 || perTermNs <= 0 {
		t.Fatalf("%d terms of %v ns", terms, perTermNs)
	}
	if fit := float64(terms) * perTermNs; fit > targetNs || fit <= targetNs-perTermNs {
		t.Errorf("%d terms of %.3f ns take %.0f ns, want within a term below the %d ns target", terms, perTermNs, fit, targetNs)
	}
}
