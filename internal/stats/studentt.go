package stats

import "math"

// normalDF is the df above which the t distribution is taken to be the normal:
// they differ by about t⁴/(4 df) relative, below 1e-14 for |t| < 40.
const normalDF = 1e20

// StudentTCDF returns P(T <= t) for Student's t distribution with df > 0
// degrees of freedom; df need not be an integer (Welch's df is not) and may be
// +Inf (the normal distribution, which is used for any df above 1e20). It
// returns NaN for NaN arguments or df <= 0. Both tails keep their relative
// accuracy: use StudentTCDF(-|t|, df) for a small upper tail instead of
// 1 - StudentTCDF(|t|, df).
func StudentTCDF(t, df float64) float64 {
	switch {
	case math.IsNaN(t) || math.IsNaN(df) || !(df > 0):
		return math.NaN()
	case df > normalDF:
		return NormalCDF(t)
	case math.IsInf(t, -1):
		return 0
	case math.IsInf(t, 1):
		return 1
	}
	tail := studentTTail(math.Abs(t), df)
	if t < 0 {
		return tail
	}
	return 1 - tail
}

// studentTTail returns P(T > a) for a >= 0: half the regularized incomplete
// beta I_x(df/2, 1/2) at x = df/(df+a²).
func studentTTail(a, df float64) float64 {
	z := (a / df) * a // a²/df, without overflowing a²
	if 1+z > 1e100 {
		// Far out I_x(df/2, 1/2) is x^(df/2) / ((df/2) B(df/2, 1/2)) to within
		// a relative 1e-100, and x = 1/(1+z) may underflow: work in logs.
		logZ := math.Log(z)
		if math.IsInf(z, 1) {
			logZ = 2*math.Log(a) - math.Log(df)
		}
		return 0.5 * math.Exp(-0.5*df*logZ-logBeta(0.5*df, 0.5)-math.Log(0.5*df))
	}
	x, y := 1/(1+z), z/(1+z)
	return 0.5 * regIncBeta(0.5*df, 0.5, x, y)
}

// studentTCentral returns P(|T| < a) for a >= 0, the regularized incomplete
// beta I_y(1/2, df/2) at y = a²/(df+a²), computed directly so that it keeps
// its relative accuracy for a near 0.
func studentTCentral(a, df float64) float64 {
	z := (a / df) * a
	if 1+z > 1e100 {
		return 1 - 2*studentTTail(a, df)
	}
	x, y := 1/(1+z), z/(1+z)
	return regIncBeta(0.5, 0.5*df, y, x)
}

// studentTLogDensity returns the log of Student's t density with df degrees of
// freedom at a.
func studentTLogDensity(a, df float64) float64 {
	return -logBeta(0.5*df, 0.5) - 0.5*math.Log(df) - 0.5*(df+1)*logOnePlusSquare(a/math.Sqrt(df))
}

// logOnePlusSquare returns log(1+s²) without overflowing s².
func logOnePlusSquare(s float64) float64 {
	s = math.Abs(s)
	if s > 1e8 {
		return 2*math.Log(s) + math.Log1p(1/(s*s))
	}
	return math.Log1p(s * s)
}
