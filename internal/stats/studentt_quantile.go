package stats

import "math"

// StudentTQuantile returns the t with StudentTCDF(t, df) = p, for real df > 0
// (above 1e20, and +Inf, the normal quantile): -Inf for p = 0, +Inf for p = 1,
// NaN for p outside [0, 1] or df <= 0. It may return ±Inf when the quantile is beyond the
// largest float64 (tiny p with df well below 1).
//
// It solves for the tail probability min(p, 1-p) when that is below 1/4 and
// for the central probability |2p-1| otherwise, so both targets are exact and
// the root keeps its relative accuracy in the tails and near 0.
func StudentTQuantile(p, df float64) float64 {
	switch {
	case math.IsNaN(p) || math.IsNaN(df) || !(df > 0) || p < 0 || p > 1:
		return math.NaN()
	case df > normalDF:
		return NormalQuantile(p)
	case p == 0:
		return math.Inf(-1)
	case p == 1:
		return math.Inf(1)
	case p == 0.5:
		return 0
	}
	tail := math.Min(p, 1-p) // exact for p in [0, 1]
	guess := cornishFisherGuess(tail, df)
	var a float64
	if tail < 0.25 {
		a = solveLogLog(tail, guess, false, func(t float64) (float64, float64) {
			v := studentTTail(t, df)
			return v, -t * math.Exp(studentTLogDensity(t, df)) / v
		})
	} else {
		a = solveLogLog(1-2*tail, guess, true, func(t float64) (float64, float64) {
			v := studentTCentral(t, df)
			return v, 2 * t * math.Exp(studentTLogDensity(t, df)) / v
		})
	}
	if p < 0.5 {
		return -a
	}
	return a
}

// cornishFisherGuess returns a starting point t > 0 for the upper-tail
// quantile: the normal quantile with the first two Cornish-Fisher terms, or the
// normal quantile alone where the expansion breaks down (small df).
func cornishFisherGuess(tail, df float64) float64 {
	z := -NormalQuantile(tail)
	z2 := z * z
	t := z + z*(z2+1)/(4*df) + z*((5*z2+16)*z2+3)/(96*df*df)
	if t > 0 && !math.IsInf(t, 0) {
		return t
	}
	return z
}

// Bounds of log t searched by solveLogLog.
var (
	minLogT = math.Log(1e-300)
	maxLogT = math.Log(math.MaxFloat64)
)

// solveLogLog returns the t > 0 at which a monotone function h reaches target
// > 0. eval returns h(t) and its log-log slope d log h / d log t. It runs
// Newton's method on log h against u = log t, where tails that fall like a
// power of t are straight lines and a Gaussian tail is smooth, and falls back
// to bisection in u (a geometric bisection in t) whenever a step would leave
// the bracket known to hold the root. It returns +Inf when the root lies
// beyond the largest float64.
func solveLogLog(target, guess float64, increasing bool, eval func(t float64) (h, slope float64)) float64 {
	sign := -1.0
	if increasing {
		sign = 1
	}
	logTarget := math.Log(target)
	lo, hi := minLogT, maxLogT
	u := math.Min(math.Max(math.Log(guess), lo), hi)
	for range 200 {
		h, slope := eval(math.Exp(u))
		f := sign * (math.Log(h) - logTarget) // increasing in u
		if f == 0 {
			break
		}
		if f < 0 {
			lo = u
		} else {
			hi = u
		}
		next := u - f/(sign*slope)
		if !(next > lo && next < hi) { // also catches a NaN step
			next = lo + (hi-lo)/2
		}
		converged := math.Abs(next-u) < 1e-14 || hi-lo < 1e-14
		u = next
		if converged {
			break
		}
	}
	if hi == maxLogT && maxLogT-u < 1e-9 {
		return math.Inf(1)
	}
	return math.Exp(u)
}
