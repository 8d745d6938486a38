package stats

import "math"

// betaLargeATerms bounds the terms of the expansion in betaLargeA.
const betaLargeATerms = 60

// betaLargeA returns I_x(a, b) for large a, moderate b and x near 1 from the
// expansion behind Didonato and Morris's BGRAT (ACM TOMS 708, 1992; DLMF
// 8.18(ii)). With w = -log(1-s), T = a + (b-1)/2 and u = -T log x,
//
//	B(a, b) I_x(a, b) = ∫_{-log x}^∞ e^{-T w} w^(b-1) h(w) dw,
//	h(w) = (sinh(w/2) / (w/2))^(b-1) = Σ g_n w^(2n),
//
// so that I_x(a, b) = Γ(b) / (B(a, b) T^b) Σ g_n (Γ(b+2n)/Γ(b)) T^(-2n) Q(b+2n, u)
// with Q the regularized upper incomplete gamma function. Its terms fall like
// (log x / 2π)^(2n) and (b/T)^(2n). The continued fraction, by contrast, loses
// digits in proportion to its own value here (about 1e-12 relative at
// a = 5e4, b = 1/2, the t distribution with 1e5 df).
func betaLargeA(a, b, x, y float64) float64 {
	t := a + (b-1)/2
	u := -t * accurateLog(x, y)
	// Q(b, u) and the steps Q(s+1, u) - Q(s, u) = u^s e^-u / Γ(s+1) are kept
	// relative to scale = u^b e^-u / Γ(b) when u is large, where they underflow.
	logScale := 0.0
	var q, step float64
	if front := gammaLogFront(b, u); u < b+1 {
		q = 1 - gammaSeries(b, u)
		step = math.Exp(front) / b
	} else {
		logScale = front
		q = gammaContinuedFractionScaled(b, u)
		step = 1 / b
	}
	var g sinhPowerSeries
	g.init(b - 1)
	sum := q
	ratio := 1.0 // Γ(b+2n)/Γ(b) / T^(2n)
	s := b
	for n := 1; n < betaLargeATerms; n++ {
		q += step // Q(s+1, u)
		step *= u / (s + 1)
		q += step // Q(s+2, u)
		step *= u / (s + 2)
		ratio *= s * (s + 1) / (t * t)
		s += 2
		term := g.next() * ratio * q
		sum += term
		if math.Abs(term) <= 0x1p-53*math.Abs(sum) {
			break
		}
	}
	logFront := logGamma(b) - logBeta(a, b) - b*math.Log(t) + logScale
	return math.Exp(logFront) * sum
}

// sinhSeries holds the coefficients of sinh(w/2)/(w/2) = Σ w^(2k) / (4^k (2k+1)!).
var sinhSeries = func() (c [betaLargeATerms]float64) {
	c[0] = 1
	for k := 1; k < betaLargeATerms; k++ {
		c[k] = c[k-1] / (4 * float64(2*k) * float64(2*k+1))
	}
	return c
}()

// sinhPowerSeries yields the coefficients g_k of
// (sinh(w/2)/(w/2))^alpha = Σ g_k w^(2k) one by one, by J. C. P. Miller's
// recurrence for the power of a power series.
type sinhPowerSeries struct {
	alpha float64
	g     [betaLargeATerms]float64
	k     int
}

// init starts the series for the power alpha at g_0 = 1.
func (p *sinhPowerSeries) init(alpha float64) {
	p.alpha, p.g[0], p.k = alpha, 1, 0
}

// next returns the next coefficient, g_1 first.
func (p *sinhPowerSeries) next() float64 {
	p.k++
	k := p.k
	var sum float64
	for j := 1; j <= k; j++ {
		sum += ((p.alpha+1)*float64(j) - float64(k)) * sinhSeries[j] * p.g[k-j]
	}
	p.g[k] = sum / float64(k)
	return p.g[k]
}
