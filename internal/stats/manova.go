package stats

import (
	"fmt"
	"math"
)

// The four multivariate tests of summary(manova(...)).
const (
	Pillai          = "Pillai"
	Wilks           = "Wilks"
	HotellingLawley = "Hotelling-Lawley"
	Roy             = "Roy"
)

// MultivariateTests lists the tests in R's order.
var MultivariateTests = []string{Pillai, Wilks, HotellingLawley, Roy}

// ManovaRow is one term's line of a multivariate test, as
// summary(manova(...), test = ...) prints it, with an effect size.
type ManovaRow struct {
	Term    string
	DF      float64 // the term's degrees of freedom
	Stat    float64 // Pillai's trace, Wilks' lambda, the Hotelling-Lawley trace or Roy's largest root
	ApproxF float64
	NumDF   float64
	DenDF   float64
	P       float64 // P(F > ApproxF); NaN where R gives NA
	// PartialEtaSq is the multivariate partial eta squared for this test,
	// with s = min(responses, DF): Pillai V/s, Wilks 1 - lambda^(1/s),
	// Hotelling-Lawley (T/s)/(1 + T/s), Roy theta/(1 + theta).
	PartialEtaSq float64
	Eigenvalues  []float64 // of E^-1 H, decreasing
}

// Manova returns one test's table over the model's terms with sequential
// (type I) hypothesis matrices, as R's summary.manova computes it: the
// eigenvalues of E^-1 H for each term H and the residual E, and the F
// approximations of R's stats:::Pillai, Wilks, HL and Roy. It needs two or
// more responses and residuals of full rank.
func (m *LinearModel) Manova(test string) ([]ManovaRow, error) {
	p := len(m.Responses)
	if p < 2 {
		return nil, fmt.Errorf("a multivariate test needs two or more responses; use the analysis of variance for one")
	}
	approx, ok := map[string]func(eig []float64, q, dfRes float64) [4]float64{
		Pillai: pillai, Wilks: wilks, HotellingLawley: hotellingLawley, Roy: roy,
	}[test]
	if !ok {
		return nil, fmt.Errorf("unknown multivariate test %q; tests: %v", test, MultivariateTests)
	}
	if m.ResidualDF < float64(p) {
		return nil, fmt.Errorf("%v residual degrees of freedom for %d responses: a multivariate test needs at least as many; repeat more runs or analyse fewer responses", m.ResidualDF, p)
	}
	// Scale to unit residual variances as R's summary.manova does: a
	// response whose residual standard deviation is below 1e-6 of its total
	// (residual plus terms) is left unscaled, so a constant one keeps its
	// zero column. Then R's rank check: qr(D E D, tol = 1e-7) with dqrdc2.
	sc := make([]float64, p)
	for i := range sc {
		total := m.ResidualSSCP[i*p+i]
		for t := range m.TermSSCP {
			if m.TermDF[t] > 0 {
				total += m.TermSSCP[t][i*p+i]
			}
		}
		sc[i] = math.Sqrt(m.ResidualSSCP[i*p+i])
		if sc[i] < math.Sqrt(total)*1e-6 || !(sc[i] > 0) {
			sc[i] = 1
		}
	}
	scale := func(s []float64) []float64 {
		out := make([]float64, p*p)
		for i := 0; i < p; i++ {
			for j := 0; j < p; j++ {
				out[i*p+j] = s[i*p+j] / (sc[i] * sc[j])
			}
		}
		return out
	}
	scaledE := scale(m.ResidualSSCP)
	rows := make([][]float64, p)
	for i := range rows {
		rows[i] = scaledE[i*p : (i+1)*p]
	}
	if rank := rankDQRDC2(rows, manovaTolerance); rank < p {
		var flat []string
		for i := range p {
			if m.residualNegligible(i) {
				flat = append(flat, m.Responses[i])
			}
		}
		why := "a response is a linear combination of the others: drop it"
		if len(flat) > 0 {
			why = fmt.Sprintf("%v have no residual variance (constant within every cell): analyse them on their own or leave them out", flat)
		}
		return nil, fmt.Errorf("residuals have rank %d < %d, as R's summary.manova refuses them: %s", rank, p, why)
	}
	el, err := cholesky(scaledE, p)
	if err != nil {
		return nil, fmt.Errorf("residuals have rank < %d: the residual matrix of %v is not positive definite", p, m.Responses)
	}
	var out []ManovaRow
	for t, term := range m.Design.Terms {
		q := float64(m.TermDF[t])
		if q == 0 {
			continue
		}
		eig := generalizedEigenvalues(scale(m.TermSSCP[t]), el, p)
		v := approx(eig, q, m.ResidualDF)
		row := ManovaRow{Term: term.String(), DF: q, Stat: v[0], ApproxF: v[1], NumDF: v[2], DenDF: v[3], P: math.NaN(), Eigenvalues: eig}
		if row.ApproxF >= 0 && row.NumDF > 0 && row.DenDF > 0 {
			row.P = FSurvival(row.ApproxF, row.NumDF, row.DenDF)
		}
		row.PartialEtaSq = multivariateEtaSq(test, row.Stat, math.Min(float64(p), q))
		out = append(out, row)
	}
	return out, nil
}

// manovaTolerance is summary.manova's tol: qr(D E D, tol = 1e-7).
const manovaTolerance = 1e-7

// pillai is R's stats:::Pillai: the trace, approximate F, and its dfs.
func pillai(eig []float64, q, dfRes float64) [4]float64 {
	test := 0.0
	for _, e := range eig {
		test += e / (1 + e)
	}
	p := float64(len(eig))
	s := math.Min(p, q)
	n := 0.5 * (dfRes - p - 1)
	m := 0.5 * (math.Abs(p-q) - 1)
	tmp1 := 2*m + s + 1
	tmp2 := 2*n + s + 1
	return [4]float64{test, (tmp2 / tmp1 * test) / (s - test), s * tmp1, s * tmp2}
}

// wilks is R's stats:::Wilks (Rao's F approximation).
func wilks(eig []float64, q, dfRes float64) [4]float64 {
	test := 1.0
	for _, e := range eig {
		test *= 1 / (1 + e)
	}
	p := float64(len(eig))
	tmp1 := dfRes - 0.5*(p-q+1)
	tmp2 := (p*q - 2) / 4
	tmp3 := p*p + q*q - 5
	if tmp3 > 0 {
		tmp3 = math.Sqrt(((p*q)*(p*q) - 4) / tmp3)
	} else {
		tmp3 = 1
	}
	return [4]float64{test, ((math.Pow(test, -1/tmp3) - 1) * (tmp1*tmp3 - 2*tmp2)) / p / q, p * q, tmp1*tmp3 - 2*tmp2}
}

// hotellingLawley is R's stats:::HL.
func hotellingLawley(eig []float64, q, dfRes float64) [4]float64 {
	test := 0.0
	for _, e := range eig {
		test += e
	}
	p := float64(len(eig))
	m := 0.5 * (math.Abs(p-q) - 1)
	n := 0.5 * (dfRes - p - 1)
	s := math.Min(p, q)
	tmp1 := 2*m + s + 1
	tmp2 := 2 * (s*n + 1)
	return [4]float64{test, (tmp2 * test) / s / s / tmp1, s * tmp1, tmp2}
}

// roy is R's stats:::Roy (an upper bound on F).
func roy(eig []float64, q, dfRes float64) [4]float64 {
	p := float64(len(eig))
	test := eig[0]
	for _, e := range eig {
		test = math.Max(test, e)
	}
	tmp1 := math.Max(p, q)
	tmp2 := dfRes - tmp1 + q
	return [4]float64{test, (tmp2 * test) / tmp1, tmp1, tmp2}
}

// multivariateEtaSq is the partial eta squared of a multivariate test
// statistic with s = min(p, q), as heplots::etasq computes it.
func multivariateEtaSq(test string, stat, s float64) float64 {
	switch test {
	case Pillai:
		return stat / s
	case Wilks:
		return 1 - math.Pow(stat, 1/s)
	case HotellingLawley:
		return (stat / s) / (1 + stat/s)
	case Roy:
		return stat / (1 + stat)
	}
	return math.NaN()
}
