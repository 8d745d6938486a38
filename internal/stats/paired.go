package stats

import "math"

// PairedOverhead is Overhead for a blocked design: baseline[i] and x[i] were
// measured in the same round (block), so what drifts between rounds (heat,
// background activity) is common to both and drops out of the comparison.
// The estimate is the same ratio of means as Overhead's; the interval is
// Fieller's with the covariance of the pairs: the rho with
//
//	(xx - rho xb)² <= t² var(x - rho b)/n,
//
// var(x - rho b) = sxx - 2 rho sxb + rho² sbb from the n pairs, t the
// Student quantile at (1+level)/2 with n-1 degrees of freedom; its ends are
// the roots of
//
//	rho² (xb² - t² sbb/n) - 2 rho (xb xx - t² sxb/n) + (xx² - t² sxx/n) = 0.
//
// PValue is the paired t test of x - baseline (R's t.test(x, baseline,
// paired = TRUE)). Pairs with a non-finite value are dropped; the slices
// must be equally long. DF is n-1.
func PairedOverhead(baseline, x []float64, level float64) OverheadResult {
	var b, v []float64
	for i := range baseline {
		if i < len(x) && isFinite(baseline[i]) && isFinite(x[i]) {
			b, v = append(b, baseline[i]), append(v, x[i])
		}
	}
	n := len(b)
	meanB, _ := meanStd(b)
	meanX, _ := meanStd(v)
	r := newOverhead(level, meanB, meanX)
	switch {
	case n == 0:
		r.Pct = math.NaN()
		r.Reason = "no complete pairs: no round measured both the baseline and this level"
		return r
	case meanB == 0:
		r.Pct = math.NaN()
		r.Reason = "baseline mean is zero: a percentage of it is undefined"
		return r
	case n < 2:
		r.Reason = "fewer than 2 complete pairs: no spread to build an interval from"
		return r
	case !(level > 0 && level < 1):
		r.Reason = "confidence level must lie between 0 and 1"
		return r
	}
	// Centred sums of squares and products of the pairs.
	var sbb, sxx, sxb, sdd float64
	for i := range b {
		db, dx := b[i]-meanB, v[i]-meanX
		sbb += db * db
		sxx += dx * dx
		sxb += db * dx
		d := (v[i] - b[i]) - (meanX - meanB)
		sdd += d * d
	}
	nf := float64(n)
	sbb, sxx, sxb, sdd = sbb/(nf-1), sxx/(nf-1), sxb/(nf-1), sdd/(nf-1)
	r.DF = nf - 1
	if sdd > 0 {
		tt := (meanX - meanB) / math.Sqrt(sdd/nf)
		r.PValue = 2 * StudentTCDF(-math.Abs(tt), r.DF)
	}
	if sbb == 0 && sxx == 0 {
		r.LoPct, r.HiPct = r.Pct, r.Pct
		r.Reason = "both samples are constant: the interval is the point estimate; the paired t test is undefined (no spread), so a difference is not marked significant"
		return r
	}
	r.VarMeanB, r.VarMeanX, r.CovMeans = sbb/nf, sxx/nf, sxb/nf
	t := StudentTQuantile((1+level)/2, r.DF)
	t2n := t * t / nf
	// In d = rho - 1, as fiellerRoots does, to keep the digits of a small
	// overhead on a large baseline: with A = xb² - t² sbb/n,
	//   d² A - 2 d (xb (xx-xb) + t²(sbb - sxb)/n) + ((xx-xb)² - t² (sxx - 2 sxb + sbb)/n) = 0.
	a := meanB*meanB - t2n*sbb
	if !(a > 0) {
		r.Reason = "baseline mean not distinguishable from zero: the Fieller interval is unbounded"
		return r
	}
	diff := meanX - meanB
	bq := meanB*diff + t2n*(sbb-sxb)
	cq := diff*diff - t2n*(sxx-2*sxb+sbb)
	disc := bq*bq - a*cq
	if disc < 0 {
		disc = 0 // rounding: the discriminant is t²/n (A var(x) + ...) >= 0 when A > 0
	}
	lo, hi := quadraticRoots(a, bq, cq, bq+math.Copysign(math.Sqrt(disc), bq))
	r.LoPct, r.HiPct = lo*100, hi*100
	r.boundBelow(b, v)
	r.Significant = r.LoPct > 0 || r.HiPct < 0
	return r
}

func isFinite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
