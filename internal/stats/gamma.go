package stats

import "math"

// The pieces of the incomplete gamma function that the incomplete beta
// function's expansion for large parameters (beta_large.go) is made of.

// gammaLogFront returns log(x^a e^-x / Γ(a)), the factor shared by the series
// and the continued fraction. For a >= 10 it is written with Stirling's series
// as a (log r - (r-1)) + log(a)/2 - log sqrt(2π) - correction(a), r = x/a,
// because a log x, x and log Γ(a) are then large and nearly cancel (at
// a = 5e5 the plain form loses 3e-10 relative).
func gammaLogFront(a, x float64) float64 {
	if a < 10 {
		return a*math.Log(x) - x - logGamma(a)
	}
	return a*logMinusLinear(x/a, (x-a)/a) + 0.5*math.Log(a) - lnSqrt2Pi - stirlingCorrection(a)
}

// logMinusLinear returns log r - d for r = 1+d > 0, given both, by the Taylor
// series -d²/2 + d³/3 - ... near r = 1 where the two terms would cancel.
func logMinusLinear(r, d float64) float64 {
	if math.Abs(d) >= 0.1 {
		return math.Log(r) - d
	}
	power, sum := d, 0.0
	for k := 2; k <= 30; k++ {
		power *= -d
		term := power / float64(k)
		sum += term
		if math.Abs(term) <= 0x1p-53*math.Abs(sum) {
			break
		}
	}
	return sum
}

// gammaSeries returns P(a, x) from its power series, which converges quickly
// for x < a+1 (Numerical Recipes' gser).
func gammaSeries(a, x float64) float64 {
	term := 1 / a
	sum := term
	for n := 1; n <= continuedFractionMaxTerms; n++ {
		term *= x / (a + float64(n))
		sum += term
		if math.Abs(term) <= math.Abs(sum)*0x1p-53 {
			return sum * math.Exp(gammaLogFront(a, x))
		}
	}
	return math.NaN()
}

// gammaContinuedFractionScaled returns Q(a, x) / (x^a e^-x / Γ(a)), which does
// not underflow where Q itself does (x in the hundreds).
func gammaContinuedFractionScaled(a, x float64) float64 {
	b := x + 1 - a
	c := 1 / tinyDenominator
	d := 1 / lentzGuard(b)
	h := d
	for i := 1; i <= continuedFractionMaxTerms; i++ {
		an := -float64(i) * (float64(i) - a)
		b += 2
		d = 1 / lentzGuard(an*d+b)
		c = lentzGuard(b + an/c)
		step := d * c
		h *= step
		if math.Abs(step-1) <= continuedFractionTolerance {
			return h
		}
	}
	return math.NaN()
}
