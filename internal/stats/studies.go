package stats

import "math"

// Between studies. A host's state can move slower than any one study sees:
// a hypervisor's disk cache that is warm one hour and cold the next, a
// neighbour that comes and goes. Within a study such a state is a constant
// the rounds cannot tell from the overhead, so no interval of one study
// carries it, however its rounds are blocked (design note 006, "Between
// studies"). What does carry it is the level that varies, repeated
// (Kalibera and Jones): the studies of the same host. Their overheads of a
// cell scatter by more than each study's own error explains; that excess,
// a random effect of the study, is added to every study's interval.

// Estimate is one study's overhead of a cell, in percent, and its
// standard error in points.
type Estimate struct{ Pct, SE float64 }

// EstimateOf is r's estimate and the standard error its interval implies:
// the half-width over the Student quantile the interval used (the upper
// half where the lower end was bounded at -100 %). ok is false without a
// finite interval.
func EstimateOf(r OverheadResult) (e Estimate, ok bool) {
	if !finiteInterval(r) || !isFinite(r.Pct) {
		return Estimate{}, false
	}
	half := (r.HiPct - r.LoPct) / 2
	if r.LoBounded {
		half = r.HiPct - r.Pct
	}
	return Estimate{Pct: r.Pct, SE: half / r.quantile()}, half > 0
}

// quantile is the Student quantile r's interval used: at its level and
// degrees of freedom (the normal one without them).
func (r OverheadResult) quantile() float64 {
	df := r.DF
	if !(df > 0) || math.IsInf(df, 0) {
		df = 1e6
	}
	return StudentTQuantile((1+r.Level)/2, df)
}

// BetweenStudies is DerSimonian and Laird's estimate of tau², the variance
// (points²) of a cell's overhead between studies beyond what each study's
// standard error explains: with weights w = 1/se², Q = sum w (y - ybar_w)²
// and tau² = max(0, (Q - (k-1)) / (sum w - sum w² / sum w)). 0 for fewer
// than two studies or when they agree within their errors; estimates
// without a positive error are left out.
func BetweenStudies(es []Estimate) float64 {
	var w, wy []float64
	for _, e := range es {
		if e.SE > 0 && isFinite(e.SE) && isFinite(e.Pct) {
			w = append(w, 1/(e.SE*e.SE))
			wy = append(wy, e.Pct/(e.SE*e.SE))
		}
	}
	k := len(w)
	if k < 2 {
		return 0
	}
	var sw, sw2, swy float64
	for i := range w {
		sw, sw2, swy = sw+w[i], sw2+w[i]*w[i], swy+wy[i]
	}
	mean := swy / sw
	q := 0.0
	for i := range w {
		y := wy[i] / w[i]
		q += w[i] * (y - mean) * (y - mean)
	}
	return math.Max(0, (q-float64(k-1))/(sw-sw2/sw))
}

// WithBetween is r with its interval widened by a variance between
// studies tau2 (points²): each side's half-width h becomes
// sqrt(h² + (t tau)²), t the quantile the interval used, so that the
// interval is the study's own error and the studies' spread added as
// variances, the lower end no further than -100 % where neither mean is
// negative. Significant is recomputed; r is returned as it is for tau2 0
// or without a finite interval.
func (r OverheadResult) WithBetween(tau2 float64) OverheadResult {
	if !(tau2 > 0) || !finiteInterval(r) {
		return r
	}
	add := r.quantile() * r.quantile() * tau2
	lo := r.Pct - math.Sqrt((r.Pct-r.LoPct)*(r.Pct-r.LoPct)+add)
	if r.LoBounded || r.Mean >= 0 && r.BaselineMean > 0 {
		lo = math.Max(lo, MinPct) // a ratio of means that are not negative
	}
	r.LoPct, r.HiPct = lo, r.Pct+math.Sqrt((r.HiPct-r.Pct)*(r.HiPct-r.Pct)+add)
	r.Significant = r.LoPct > 0 || r.HiPct < 0
	return r
}
