package stats

import "math"

// ScaledDifference is the difference of two means in percent of a third:
// the share of a baseline that one switch of a mechanism explains.
type ScaledDifference struct {
	Pct         float64 // (mean(a) - mean(b)) / mean(base) * 100
	LoPct       float64 // lower end of the interval; NaN when there is none
	HiPct       float64 // upper end
	DF          float64 // Welch-Satterthwaite degrees of freedom of the estimate
	Significant bool    // the interval excludes 0
}

// DifferenceOfMeans estimates (mean(a) - mean(b)) / mean(base) * 100 from
// three independent samples with a delta-method interval: the estimate's
// variance is sum(c_i² s_i²/n_i) with the gradient c = (1/B, -1/B,
// -(A-B)/B²) at the means A, B of a, b and B of base, and its degrees of
// freedom are Welch-Satterthwaite's over the three terms. Non-finite values
// are left out. With fewer than 2 values in any sample, or a zero base
// mean, the interval is NaN.
func DifferenceOfMeans(a, b, base []float64, level float64) ScaledDifference {
	a, b, base = finiteValues(a), finiteValues(b), finiteValues(base)
	nan := math.NaN()
	r := ScaledDifference{Pct: nan, LoPct: nan, HiPct: nan, DF: nan}
	if len(a) == 0 || len(b) == 0 || len(base) == 0 {
		return r
	}
	ma, sa := meanStd(a)
	mb, sb := meanStd(b)
	m0, s0 := meanStd(base)
	if m0 == 0 {
		return r
	}
	r.Pct = (ma - mb) / m0 * 100
	if len(a) < 2 || len(b) < 2 || len(base) < 2 || !(level > 0 && level < 1) {
		return r
	}
	terms := []struct {
		c, s float64
		n    int
	}{{1 / m0, sa, len(a)}, {-1 / m0, sb, len(b)}, {-(ma - mb) / (m0 * m0), s0, len(base)}}
	var v, denom float64
	for _, t := range terms {
		vi := t.c * t.c * t.s * t.s / float64(t.n)
		v += vi
		denom += vi * vi / float64(t.n-1)
	}
	if v == 0 {
		r.LoPct, r.HiPct = r.Pct, r.Pct
		return r
	}
	r.DF = v * v / denom
	half := StudentTQuantile((1+level)/2, r.DF) * math.Sqrt(v) * 100
	r.LoPct, r.HiPct = r.Pct-half, r.Pct+half
	r.Significant = r.LoPct > 0 || r.HiPct < 0
	return r
}
