package stats

import "math"

// MedianDroppingExtremes is the median of xs over the runs left after
// dropping the run with the lowest and the one with the highest value of
// by: Kałaska 2023's statistic (seed 003: "Based on the median of
// processing time the best and the worst test run was removed ... After
// that, the median of processing time ... were calculated over the rest
// results"). xs and by hold one value per run, in the same order; by ranks
// the runs (the seed's run median processing time) and may be xs itself.
// A tie drops the first run of the tied value. With fewer than 3 runs
// nothing can be dropped and kept is len(xs): the plain median. Runs with a
// non-finite value in either slice are left out first. It returns NaN when
// nothing is left, or when the slices differ in length.
func MedianDroppingExtremes(xs, by []float64) (median float64, kept int) {
	if len(xs) != len(by) {
		return math.NaN(), 0
	}
	var vals, keys []float64
	for i := range xs {
		if isFinite(xs[i]) && isFinite(by[i]) {
			vals, keys = append(vals, xs[i]), append(keys, by[i])
		}
	}
	if len(vals) >= 3 {
		lo, hi := 0, 0
		for i, k := range keys {
			if k < keys[lo] {
				lo = i
			}
			if k > keys[hi] {
				hi = i
			}
		}
		if lo == hi { // every key equal: drop the first and the last
			hi = len(keys) - 1
		}
		var rest []float64
		for i, v := range vals {
			if i != lo && i != hi {
				rest = append(rest, v)
			}
		}
		vals = rest
	}
	return Median(vals), len(vals)
}
