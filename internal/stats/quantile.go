package stats

import (
	"math"
	"slices"
)

// Quantile returns the p-quantile of sorted by linear interpolation between
// order statistics, R's default (type 7): with h = (n-1)p, the value at
// floor(h) plus the fraction h-floor(h) of the step to the next one. sorted
// must be in ascending order and hold no NaN. Quantile returns NaN for an
// empty slice or p outside [0, 1].
func Quantile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 0 || !(p >= 0 && p <= 1) {
		return math.NaN()
	}
	h := float64(n-1) * p
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	fraction := h - float64(lo)
	if fraction == 0 {
		return sorted[lo]
	}
	return sorted[lo] + fraction*(sorted[lo+1]-sorted[lo])
}

// Median returns the median of the finite values in xs (need not be sorted),
// or NaN if there are none.
func Median(xs []float64) float64 {
	return Quantile(sortedCopy(finiteValues(xs)), 0.5)
}

// sortedCopy returns xs sorted in ascending order without touching xs.
func sortedCopy(xs []float64) []float64 {
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	return sorted
}
