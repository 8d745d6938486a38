package stats

import "math"

// lnSqrt2Pi is log(sqrt(2*pi)).
const lnSqrt2Pi = 0.918938533204672741780329736406

// continuedFractionTolerance is the relative change of a continued fraction's
// value below which Lentz's method stops: a few units in the last place.
const continuedFractionTolerance = 4 * 0x1p-52

// continuedFractionMaxTerms bounds the evaluation of a continued fraction. The
// incomplete beta fraction needs O(sqrt(max(a, b))) terms in the worst case,
// which this covers up to a, b of about 1e9.
const continuedFractionMaxTerms = 100000

// tinyDenominator replaces a zero denominator in Lentz's method.
const tinyDenominator = 1e-300

// regIncBeta returns the regularized incomplete beta function I_x(a, b) for
// a, b > 0, given both x and y = 1-x so that neither has to be recovered from
// the other by a cancelling subtraction. It evaluates the continued fraction
// of Numerical Recipes (section 6.4) by the modified Lentz method, on the side
// of the mean where it converges quickly, or the large-a expansion of
// betaLargeA where that fraction would lose digits. It returns NaN if the
// fraction does not converge.
func regIncBeta(a, b, x, y float64) float64 {
	switch {
	case math.IsNaN(x) || math.IsNaN(y) || !(a > 0) || !(b > 0):
		return math.NaN()
	case x <= 0:
		return 0
	case y <= 0:
		return 1
	}
	if x > (a+1)/(a+b+2) {
		return 1 - regIncBetaDirect(b, a, y, x)
	}
	return regIncBetaDirect(a, b, x, y)
}

// regIncBetaDirect evaluates I_x(a, b) = x^a y^b / (a B(a, b)) * CF without
// choosing a side, or by betaLargeA where the continued fraction loses digits:
// a large against b (the t distribution with many df, the F distribution with
// a large denominator df) and x near 1.
func regIncBetaDirect(a, b, x, y float64) float64 {
	if a >= 1000 && b <= a/10 && x >= 0.5 {
		return betaLargeA(a, b, x, y)
	}
	logFront := a*accurateLog(x, y) + b*accurateLog(y, x) - logBeta(a, b) - math.Log(a)
	return math.Exp(logFront) * betaContinuedFraction(a, b, x)
}

// accurateLog returns log(v) where w = 1-v, through log1p(-w) when v is close
// to 1 and w therefore carries more of its digits.
func accurateLog(v, w float64) float64 {
	if v > 0.5 {
		return math.Log1p(-w)
	}
	return math.Log(v)
}

// betaContinuedFraction evaluates the continued fraction for I_x(a, b) of
// Numerical Recipes' betacf by the modified Lentz method.
func betaContinuedFraction(a, b, x float64) float64 {
	qab, qap, qam := a+b, a+1, a-1
	c := 1.0
	d := lentzGuard(1 - qab*x/qap)
	d = 1 / d
	h := d
	for m := 1; m <= continuedFractionMaxTerms; m++ {
		fm := float64(m)
		m2 := 2 * fm
		even := fm * (b - fm) * x / ((qam + m2) * (a + m2))
		d = 1 / lentzGuard(1+even*d)
		c = lentzGuard(1 + even/c)
		h *= d * c
		odd := -(a + fm) * (qab + fm) * x / ((a + m2) * (qap + m2))
		d = 1 / lentzGuard(1+odd*d)
		c = lentzGuard(1 + odd/c)
		step := d * c
		h *= step
		if math.Abs(step-1) <= continuedFractionTolerance {
			return h
		}
	}
	return math.NaN()
}

// lentzGuard keeps a denominator of Lentz's method away from zero.
func lentzGuard(v float64) float64 {
	if math.Abs(v) < tinyDenominator {
		return tinyDenominator
	}
	return v
}

// logBeta returns log B(a, b) for a, b > 0. When an argument is 10 or more it
// uses Stirling's series for the log-gamma terms so that large, nearly equal
// log-gamma values do not cancel (as R's lbeta does).
func logBeta(a, b float64) float64 {
	p, q := math.Min(a, b), math.Max(a, b)
	switch {
	case p >= 10:
		corr := stirlingCorrection(p) + stirlingCorrection(q) - stirlingCorrection(p+q)
		return -0.5*math.Log(q) + lnSqrt2Pi + corr + (p-0.5)*math.Log(p/(p+q)) + q*math.Log1p(-p/(p+q))
	case q >= 10:
		corr := stirlingCorrection(q) - stirlingCorrection(p+q)
		return logGamma(p) + corr + p - p*math.Log(p+q) + (q-0.5)*math.Log1p(-p/(p+q))
	default:
		return logGamma(p) + logGamma(q) - logGamma(p+q)
	}
}

// stirlingCorrection returns log Γ(x) - ((x-0.5) log x - x + log sqrt(2π)) for
// x >= 10 from its asymptotic series; the first omitted term is below 3e-17.
func stirlingCorrection(x float64) float64 {
	r := 1 / x
	r2 := r * r
	return r * (1.0/12 + r2*(-1.0/360+r2*(1.0/1260+r2*(-1.0/1680+r2*(1.0/1188+r2*(-691.0/360360+r2*(1.0/156)))))))
}

// logGamma returns log |Γ(x)|.
func logGamma(x float64) float64 {
	v, _ := math.Lgamma(x)
	return v
}
