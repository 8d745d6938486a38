package stats

import "math"

// FCDF returns P(F <= x) for the F distribution with d1 and d2 (real, > 0)
// degrees of freedom. It returns NaN for NaN arguments or d1, d2 not finite
// and positive.
func FCDF(x, d1, d2 float64) float64 {
	return onPositiveHalfLine(x, validDF(d1) && validDF(d2), 0, func() float64 {
		lower, upper := fBetaArguments(x, d1, d2)
		return regIncBeta(0.5*d1, 0.5*d2, lower, upper)
	})
}

// FSurvival returns P(F > x) for the F distribution with d1 and d2 degrees of
// freedom: the p-value of an F test. It is computed directly, not as 1-FCDF,
// so p-values far below 1e-16 keep their relative accuracy.
func FSurvival(x, d1, d2 float64) float64 {
	return onPositiveHalfLine(x, validDF(d1) && validDF(d2), 1, func() float64 {
		lower, upper := fBetaArguments(x, d1, d2)
		return regIncBeta(0.5*d2, 0.5*d1, upper, lower)
	})
}

// fBetaArguments returns w = d1 x/(d1 x + d2) and 1-w, each computed without
// subtraction and without overflowing d1 x.
func fBetaArguments(x, d1, d2 float64) (w, complement float64) {
	if math.IsInf(x, 1) {
		return 1, 0
	}
	if r := d2 / d1 / x; r < 1 { // r = d2/(d1 x)
		return 1 / (1 + r), r / (1 + r)
	}
	r := d1 / d2 * x // r = d1 x/d2
	return r / (1 + r), 1 / (1 + r)
}

// onPositiveHalfLine evaluates a CDF or survival function of a distribution
// on x > 0 (F): NaN for a NaN x or invalid parameters (valid
// false), atZero for x <= 0, else f.
func onPositiveHalfLine(x float64, valid bool, atZero float64, f func() float64) float64 {
	switch {
	case math.IsNaN(x) || !valid:
		return math.NaN()
	case x <= 0:
		return atZero
	}
	return f()
}

// validDF reports whether df is a finite, positive number of degrees of
// freedom.
func validDF(df float64) bool {
	return df > 0 && !math.IsInf(df, 1)
}
