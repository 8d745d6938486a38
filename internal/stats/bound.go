package stats

// MinPct is the smallest deviation a ratio of non-negative means can have:
// -100 %, the level's mean at zero.
const MinPct = -100.0

// boundBelow raises a lower end below MinPct to MinPct when no value of
// the baseline b or the level x is negative: the ratio of two means of
// non-negative values is not negative, so every ratio Fieller's set holds
// below it is impossible. Cutting them off keeps every possible ratio the
// set held, and so its coverage; the upper end is untouched (design note
// 013 says why this rather than an interval on the log of the ratio).
func (r *OverheadResult) boundBelow(b, x []float64) {
	if !(r.LoPct < MinPct) || negative(b) || negative(x) {
		return
	}
	r.LoPct, r.LoBounded = MinPct, true
}

// negative reports that a value of xs is below zero.
func negative(xs []float64) bool {
	for _, v := range xs {
		if v < 0 {
			return true
		}
	}
	return false
}
