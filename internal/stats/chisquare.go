package stats

import "math"

// ChiSquareCDF returns P(X <= x) for the chi-square distribution with k > 0
// (real, finite) degrees of freedom. It returns NaN for NaN arguments or an
// invalid k.
func ChiSquareCDF(x, k float64) float64 {
	if math.IsNaN(x) || !validDF(k) {
		return math.NaN()
	}
	if x <= 0 {
		return 0
	}
	return regIncGammaLower(0.5*k, 0.5*x)
}

// ChiSquareSurvival returns P(X > x) for the chi-square distribution with k
// degrees of freedom, computed directly so that small p-values keep their
// relative accuracy.
func ChiSquareSurvival(x, k float64) float64 {
	if math.IsNaN(x) || !validDF(k) {
		return math.NaN()
	}
	if x <= 0 {
		return 1
	}
	return regIncGammaUpper(0.5*k, 0.5*x)
}
