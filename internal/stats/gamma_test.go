package stats

import (
	"math"
	"testing"
)

// TestGammaLogFrontStirling checks the Stirling form gammaLogFront takes
// for a >= 10 against the plain a log x - x - log Γ(a), which is still
// accurate to about 1e-13 at these sizes, on both sides of the series
// logMinusLinear switches to near x = a.
func TestGammaLogFrontStirling(t *testing.T) {
	for _, a := range []float64{10, 12.5, 40, 300} {
		for _, r := range []float64{0.5, 0.95, 1, 1.02, 1.5} {
			x := a * r
			lg, _ := math.Lgamma(a)
			check(t, "gammaLogFront", gammaLogFront(a, x), a*math.Log(x)-x-lg, 1e-11)
		}
	}
}
