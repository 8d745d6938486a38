package stats

import (
	"fmt"
	"math"
)

// OverheadResult is the overhead of a level against the baseline: how far, in
// percent, its mean lies from the baseline mean, and how sure we are.
type OverheadResult struct {
	Level        float64 // Level is the confidence level of the interval, e.g. 0.95.
	BaselineMean float64 // BaselineMean is the mean of the finite baseline values.
	Mean         float64 // Mean is the mean of the finite values of the level.
	Pct          float64 // Pct is (Mean/BaselineMean - 1) * 100.
	LoPct        float64 // LoPct is the lower end of Fieller's interval for Pct.
	HiPct        float64 // HiPct is the upper end of Fieller's interval for Pct.
	DF           float64 // DF is the Welch-type degrees of freedom the interval used.
	PValue       float64 // PValue is Welch's two-sided p-value for Mean - BaselineMean.
	Significant  bool    // Significant reports that LoPct..HiPct excludes 0.
	Reason       string  // Reason says why a field is NaN or degenerate; empty when all are defined.
	// LoBounded reports that Fieller's lower end lay below -100 % and was
	// raised to -100 %: no value of either sample is negative, so neither
	// is the ratio of their means (see BoundBelow).
	LoBounded bool
	// VarMeanB and VarMeanX are the squared standard errors of the two
	// means the interval was built from (with the drift between rounds in
	// them, OverheadAcrossRounds), CovMeans their covariance (paired
	// samples, else 0); 0 where no interval was built. From them the
	// stopping rule estimates the rounds that would bound an interval
	// Fieller's set leaves unbounded (roundsToBound).
	VarMeanB, VarMeanX, CovMeans float64
}

// Overhead compares the finite values of x with those of baseline. The
// interval for the ratio rho = mean(x)/mean(baseline) is Fieller's: the rho
// with (xx - rho xb)² <= t² (vx + rho² vb), where xb, xx are the means,
// vb = sb²/nb and vx = sx²/nx their squared standard errors, and t the Student
// quantile at (1+level)/2 with the Welch-type df of xx - r xb at the estimate
// r = xx/xb. Its ends are the roots of
//
//	rho² (xb² - t² vb) - 2 rho xb xx + (xx² - t² vx) = 0,
//
// reported as percent deviations (rho-1)*100. Pct and the ends are computed
// from Mean-BaselineMean, not from the ratio, so that a small overhead on a
// large baseline (1e9 ns) keeps its digits. When xb² - t² vb <= 0 the
// baseline mean is not distinguishable from zero, the set of rho is unbounded,
// and LoPct, HiPct are NaN with a Reason instead of an invented interval. When
// both samples are constant the interval is the point Pct, and a difference
// is not marked significant: there is no test of it (Welch's t is undefined,
// R's t.test stops with "data are essentially constant").
//
// When no value of either sample is negative (throughput, times, memory:
// nearly every metric), the ratio of the means cannot be negative either,
// and a lower end below -100 % is cut to -100 % (LoBounded): Fieller's set
// intersected with the ratios that are possible, which holds the true
// ratio whenever Fieller's set does, so the coverage is kept (design note
// 013).
//
// A negative baseline mean is allowed: Pct is then the signed ratio's
// deviation from 1, which reads as "x is Pct % larger in magnitude" when both
// means are negative.
func Overhead(baseline, x []float64, level float64) OverheadResult {
	return overhead(baseline, x, level, 1, 1)
}

// overhead is Overhead with the squared standard errors of the baseline's
// mean and of x's multiplied by inflateB and inflateX (>= 1): the variance
// a drift between rounds adds (OverheadAcrossRounds).
func overhead(baseline, x []float64, level, inflateB, inflateX float64) OverheadResult {
	b, v := finiteValues(baseline), finiteValues(x)
	meanB, stdB := meanStd(b)
	meanX, stdX := meanStd(v)
	r := newOverhead(level, meanB, meanX)
	if len(b) >= 2 && len(v) >= 2 {
		r.PValue = welch(v, b, welchLevel).P // the p-value does not depend on level
	}
	switch {
	case len(b) == 0:
		r.Reason = "no finite values in the baseline"
		return r
	case len(v) == 0:
		r.Reason = "no finite values to compare with the baseline"
		return r
	case meanB == 0:
		r.Pct = math.NaN()
		r.Reason = "baseline mean is zero: a percentage of it is undefined"
		return r
	case len(b) < 2:
		r.Reason = "fewer than 2 values in the baseline: no spread to build an interval from"
		return r
	case len(v) < 2:
		r.Reason = "fewer than 2 values to compare with the baseline: no spread to build an interval from"
		return r
	case !(level > 0 && level < 1):
		r.Reason = fmt.Sprintf("confidence level must lie between 0 and 1, got %g", level)
		return r
	}
	varMeanB := inflateB * stdB * stdB / float64(len(b))
	varMeanX := inflateX * stdX * stdX / float64(len(v))
	if varMeanB == 0 && varMeanX == 0 {
		r.LoPct, r.HiPct = r.Pct, r.Pct
		r.Reason = "both samples are constant: the interval is the point estimate; Welch's test is undefined (no spread), so a difference is not marked significant"
		return r
	}
	ratio := meanX / meanB
	r.DF = float64(len(b) - 1) // the limit of the formula when vx = 0, also at ratio = 0
	if varMeanX > 0 {
		r.DF = welchSatterthwaite(varMeanX, len(v), ratio*ratio*varMeanB, len(b))
	}
	r.VarMeanB, r.VarMeanX = varMeanB, varMeanX
	t := StudentTQuantile((1+level)/2, r.DF)
	lo, hi, ok := fiellerRoots(meanB, varMeanB, meanX, varMeanX, t)
	if !ok {
		r.Reason = "baseline mean not distinguishable from zero: the Fieller interval is unbounded"
		return r
	}
	r.LoPct, r.HiPct = lo*100, hi*100
	r.boundBelow(b, v)
	r.Significant = r.LoPct > 0 || r.HiPct < 0
	return r
}

// newOverhead is the overhead at level of a mean of meanX over a baseline
// mean of meanB, with the interval, DF and p-value NaN until they are
// computed.
func newOverhead(level, meanB, meanX float64) OverheadResult {
	nan := math.NaN()
	return OverheadResult{Level: level, BaselineMean: meanB, Mean: meanX,
		Pct: (meanX - meanB) / meanB * 100, LoPct: nan, HiPct: nan, DF: nan, PValue: nan}
}

// fiellerRoots returns the ends lo <= hi of Fieller's interval for xx/xb - 1,
// the relative deviation, so that a small overhead on a large baseline keeps
// its digits. Substituting rho = 1 + d in rho² A - 2 rho B + C = 0, with
// A = xb² - t² vb, B = xb xx and C = xx² - t² vx, gives
//
//	d² A - 2 d (xb (xx-xb) + t² vb) + ((xx-xb)² - t² (vb+vx)) = 0,
//
// whose discriminant, like that of the equation in rho, is t² (vx A + vb xx²):
// never negative when A > 0. ok is false when A <= 0 and the interval is
// unbounded. The root nearer zero comes from the product of the roots, so
// neither is lost to cancellation.
func fiellerRoots(xb, vb, xx, vx, t float64) (lo, hi float64, ok bool) {
	a := xb*xb - t*t*vb
	if !(a > 0) {
		return math.NaN(), math.NaN(), false
	}
	diff := xx - xb
	b := xb*diff + t*t*vb
	c := diff*diff - t*t*(vb+vx)
	q := b + math.Copysign(t*math.Sqrt(vx*a+vb*xx*xx), b)
	lo, hi = quadraticRoots(a, b, c, q)
	return lo, hi, true
}

// quadraticRoots returns the roots lo <= hi of d² a - 2 d b + c = 0 from q
// = b + sign(b) sqrt(b² - a c): q/a, and c/q from the product of the roots,
// so that the root nearer zero is not lost to cancellation.
func quadraticRoots(a, b, c, q float64) (lo, hi float64) {
	if q == 0 {
		return b / a, b / a
	}
	lo, hi = q/a, c/q
	if lo > hi {
		lo, hi = hi, lo
	}
	return lo, hi
}
