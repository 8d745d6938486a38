package stats

import (
	"math"
	"slices"
)

// Summary describes one sample: its spread as well as its centre. All fields
// are in the unit of the values described.
type Summary struct {
	N         int     // N is the number of finite values described.
	NonFinite int     // NonFinite counts the NaN and ±Inf values left out.
	Mean      float64 // Mean is the arithmetic mean; NaN when N is 0.
	Std       float64 // Std is the sample standard deviation (divisor N-1); 0 when N is 1.
	Min       float64 // Min is the smallest value.
	Q1        float64 // Q1 is the 25 % quantile (R's type 7).
	Median    float64 // Median is the 50 % quantile.
	Q3        float64 // Q3 is the 75 % quantile (R's type 7).
	Max       float64 // Max is the largest value.
	CV        float64 // CV is the coefficient of variation Std/Mean; NaN when Mean is 0.
}

// Describe summarizes the finite values of xs. NaN and ±Inf values are not
// described but counted in NonFinite. With no finite values every statistic is
// NaN; with one, Std is 0 and every quantile is that value.
func Describe(xs []float64) Summary {
	finite := finiteValues(xs)
	s := Summary{N: len(finite), NonFinite: len(xs) - len(finite)}
	if s.N == 0 {
		nan := math.NaN()
		s.Mean, s.Std, s.Min, s.Q1, s.Median, s.Q3, s.Max, s.CV = nan, nan, nan, nan, nan, nan, nan, nan
		return s
	}
	s.Mean, s.Std = meanStd(finite)
	sorted := sortedCopy(finite)
	s.Min = sorted[0]
	s.Q1 = Quantile(sorted, 0.25)
	s.Median = Quantile(sorted, 0.5)
	s.Q3 = Quantile(sorted, 0.75)
	s.Max = sorted[len(sorted)-1]
	s.CV = math.NaN()
	if s.Mean != 0 {
		s.CV = s.Std / s.Mean
	}
	return s
}

// Mean returns the arithmetic mean of the finite values in xs, or NaN if there
// are none.
func Mean(xs []float64) float64 {
	m, _ := meanStd(finiteValues(xs))
	return m
}

// Std returns the sample standard deviation (divisor n-1) of the finite values
// in xs: 0 for one value, NaN for none.
func Std(xs []float64) float64 {
	_, s := meanStd(finiteValues(xs))
	return s
}

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

// meanStd returns the mean and sample standard deviation of finite values. The
// mean is refined by the mean of the residuals and the variance uses the
// corrected two-pass formula, so large offsets (timestamps, 1e9 ns) do not eat
// the digits of a small spread.
func meanStd(finite []float64) (mean, std float64) {
	n := float64(len(finite))
	switch len(finite) {
	case 0:
		return math.NaN(), math.NaN()
	case 1:
		return finite[0], 0
	}
	mean = compensatedSum(finite, func(x float64) float64 { return x }) / n
	mean += compensatedSum(finite, func(x float64) float64 { return x - mean }) / n
	residual := compensatedSum(finite, func(x float64) float64 { return x - mean })
	squares := compensatedSum(finite, func(x float64) float64 { d := x - mean; return d * d })
	variance := (squares - residual*residual/n) / (n - 1)
	return mean, math.Sqrt(math.Max(variance, 0))
}

// compensatedSum adds f(x) over xs with Neumaier's compensated summation, whose
// error does not grow with the number of terms.
func compensatedSum(xs []float64, f func(float64) float64) float64 {
	var sum, compensation float64
	for _, x := range xs {
		v := f(x)
		t := sum + v
		if math.Abs(sum) >= math.Abs(v) {
			compensation += (sum - t) + v
		} else {
			compensation += (v - t) + sum
		}
		sum = t
	}
	return sum + compensation
}

// finiteValues returns the values of xs that are neither NaN nor ±Inf. It
// returns xs itself when all are finite.
func finiteValues(xs []float64) []float64 {
	for i, x := range xs {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			finite := append([]float64(nil), xs[:i]...)
			for _, y := range xs[i+1:] {
				if !math.IsNaN(y) && !math.IsInf(y, 0) {
					finite = append(finite, y)
				}
			}
			return finite
		}
	}
	return xs
}
