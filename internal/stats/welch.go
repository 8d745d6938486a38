package stats

import "math"

// welchLevel is the confidence level of the interval Welch reports.
const welchLevel = 0.95

// TTest is the result of Welch's two-sample t test of mean(a) - mean(b),
// which does not assume equal variances (R's t.test with var.equal = FALSE).
// Values are in the unit of the samples.
type TTest struct {
	NA, NB   int     // NA and NB count the finite values used from a and b.
	MeanDiff float64 // MeanDiff is mean(a) - mean(b).
	StdErr   float64 // StdErr is the standard error of MeanDiff, sqrt(sa²/na + sb²/nb).
	T        float64 // T is the statistic MeanDiff/StdErr.
	DF       float64 // DF is the Welch–Satterthwaite degrees of freedom.
	P        float64 // P is the two-sided p-value.
	Level    float64 // Level is the confidence level of DiffLo..DiffHi (0.95).
	DiffLo   float64 // DiffLo is the lower end of the interval for MeanDiff.
	DiffHi   float64 // DiffHi is the upper end of the interval for MeanDiff.
	Reason   string  // Reason says why a field is NaN or degenerate; empty when all are defined.
}

// Welch compares the means of the finite values of a and b with Welch's t
// test and a 95 % confidence interval for their difference. With fewer than 2
// values in a sample, T, DF, P and the interval are NaN. When both samples
// are constant there is no spread to test against: T, DF and P are NaN and the
// interval is the point MeanDiff.
func Welch(a, b []float64) TTest {
	return welch(finiteValues(a), finiteValues(b), welchLevel)
}

// welch is Welch with finite samples and a chosen confidence level.
func welch(a, b []float64, level float64) TTest {
	meanA, stdA := meanStd(a)
	meanB, stdB := meanStd(b)
	nan := math.NaN()
	r := TTest{NA: len(a), NB: len(b), MeanDiff: meanA - meanB, Level: level,
		StdErr: nan, T: nan, DF: nan, P: nan, DiffLo: nan, DiffHi: nan}
	switch {
	case len(a) < 2:
		r.Reason = "fewer than 2 finite values in the first sample"
		return r
	case len(b) < 2:
		r.Reason = "fewer than 2 finite values in the second sample"
		return r
	}
	varMeanA := stdA * stdA / float64(len(a))
	varMeanB := stdB * stdB / float64(len(b))
	r.StdErr = math.Sqrt(varMeanA + varMeanB)
	if r.StdErr == 0 {
		r.DiffLo, r.DiffHi = r.MeanDiff, r.MeanDiff
		r.Reason = "both samples are constant: no spread to test the difference against"
		return r
	}
	r.DF = welchSatterthwaite(varMeanA, len(a), varMeanB, len(b))
	r.T = r.MeanDiff / r.StdErr
	r.P = 2 * StudentTCDF(-math.Abs(r.T), r.DF)
	half := StudentTQuantile((1+level)/2, r.DF) * r.StdErr
	r.DiffLo, r.DiffHi = r.MeanDiff-half, r.MeanDiff+half
	return r
}

// welchSatterthwaite returns the approximate degrees of freedom of
// v1 + v2, two independent variance estimates from n1 and n2 values:
// (v1+v2)² / (v1²/(n1-1) + v2²/(n2-1)), scaled so that tiny or huge variances
// neither underflow nor overflow.
func welchSatterthwaite(v1 float64, n1 int, v2 float64, n2 int) float64 {
	sum := v1 + v2
	w1, w2 := v1/sum, v2/sum
	return 1 / (w1*w1/float64(n1-1) + w2*w2/float64(n2-1))
}
