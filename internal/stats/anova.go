package stats

import "math"

// AnovaRow is one line of an analysis-of-variance table, as
// summary(aov(...)) prints it, with the effect sizes beside it.
type AnovaRow struct {
	Term   string  // "Residuals" for the last row
	DF     float64 //
	SumSq  float64 //
	MeanSq float64 //
	F      float64 // NaN on the residual row
	P      float64 // P(F > F) with DF and the residual df; NaN on the residual row
	// EtaSq is SumSq over the total sum of squares (about the mean);
	// PartialEtaSq is SumSq / (SumSq + residual SumSq). NaN on the residual row.
	EtaSq        float64
	PartialEtaSq float64
}

// Anova returns response r's analysis of variance with sequential (type I)
// sums of squares: one row per term with degrees of freedom (terms all of
// whose columns are aliased are left out, as R does), then the residuals.
// A response without residual variance (constant within every cell) gets
// NaN for F and p, where R prints Inf or NaN: there is nothing to test the
// terms against (see NoResidualVariance).
func (m *LinearModel) Anova(r int) []AnovaRow {
	p := len(m.Responses)
	ssRes := m.ResidualSSCP[r*p+r]
	msRes := ssRes / m.ResidualDF
	total := ssRes
	for t := range m.Design.Terms {
		total += m.TermSSCP[t][r*p+r]
	}
	flat := m.residualNegligible(r)
	var out []AnovaRow
	for t, term := range m.Design.Terms {
		df := float64(m.TermDF[t])
		if df == 0 {
			continue
		}
		ss := m.TermSSCP[t][r*p+r]
		row := AnovaRow{Term: term.String(), DF: df, SumSq: ss, MeanSq: ss / df}
		row.F, row.P = math.NaN(), math.NaN()
		if !flat { // without residual variance there is no F (R: Inf), no p
			row.F = row.MeanSq / msRes
			row.P = FSurvival(row.F, df, m.ResidualDF)
		}
		row.EtaSq, row.PartialEtaSq = math.NaN(), math.NaN()
		if total > m.FittedSS[r]*perfectFitTolerance { // else the response is constant: nothing to explain

			row.EtaSq = ss / total
			row.PartialEtaSq = ss / (ss + ssRes)
		}
		out = append(out, row)
	}
	nan := math.NaN()
	return append(out, AnovaRow{Term: "Residuals", DF: m.ResidualDF, SumSq: ssRes, MeanSq: msRes, F: nan, P: nan, EtaSq: nan, PartialEtaSq: nan})
}
