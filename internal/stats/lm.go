package stats

import (
	"context"
	"errors"
	"fmt"
	"math"
)

// LinearModel is a least-squares fit of one or more responses on a Design,
// with what ANOVA and MANOVA need: the sequential (type I) sums of squares
// and cross-products of every term, and the residual ones. It matches R's
// lm(cbind(y1, y2, ...) ~ formula) with treatment contrasts.
type LinearModel struct {
	Design     *Design
	Responses  []string
	N          float64 // observations
	Rank       int     // columns that are not aliased
	ResidualDF float64 // N - Rank

	// Coef[j][r] is the coefficient of Design.Columns[j] for response r;
	// NaN when the column is aliased (R's NA). StdErr likewise.
	Coef    [][]float64
	StdErr  [][]float64
	Aliased []bool

	// TermDF[t] is the degrees of freedom of Design.Terms[t]: its columns
	// that are not aliased. TermSSCP[t] is its p x p matrix (row-major) of
	// sequential sums of squares and cross-products: what it explains after
	// the terms before it.
	TermDF   []int
	TermSSCP [][]float64
	// ResidualSSCP is the residual sums of squares and cross-products (p x p, row-major).
	ResidualSSCP []float64
	// Skipped counts observations left out for a non-finite response.
	Skipped int
	// FittedSS[r] is the sum of squares of response r's fitted values (the
	// effects of the kept columns, intercept included): the scale against
	// which a residual counts as nothing.
	FittedSS []float64
}

// perfectFitTolerance: a residual variance below this fraction of the
// fitted values' mean square is rounding, not spread. R's summary.lm warns
// of an "essentially perfect fit" at 1e-30; boxtax's values carry about 15
// significant digits, so a residual standard deviation under 1e-10 of the
// values (variance 1e-20) is what rounding leaves of a constant response.
const perfectFitTolerance = 1e-20

// residualNegligible says whether response r has no residual variance: its
// values are constant within every cell, so F, t and their p-values are
// undefined (R would print Inf or NaN, with stars), not evidence.
func (m *LinearModel) residualNegligible(r int) bool {
	p := len(m.Responses)
	resVar := m.ResidualSSCP[r*p+r] / m.ResidualDF
	scale := m.FittedSS[r] / m.N
	return !(resVar > scale*perfectFitTolerance)
}

// NoResidualVariance lists the responses whose residual variance is nil
// (constant within every cell): they get no F, p or stars.
func (m *LinearModel) NoResidualVariance() []string {
	var out []string
	for r, name := range m.Responses {
		if m.residualNegligible(r) {
			out = append(out, name)
		}
	}
	return out
}

// ErrNoResidualDF says the model has as many parameters as observations.
var ErrNoResidualDF = errors.New("no residual degrees of freedom: the model has as many parameters as there are observations")

// Fit fits the terms to the observations collected in cells. Because every
// regressor is categorical, the fit runs on the cells (one row a cell,
// weighted by its count) and the within-cell cross-products are added to
// the residual: exactly the full data's least squares, in time and memory
// that depend on the number of cells only. The least squares are solved by
// Householder QR, which R uses too; columns that are combinations of earlier
// ones (an empty cell in an interaction) are aliased as in R.
func Fit(cells *Cells, terms []Term) (*LinearModel, error) {
	return FitContext(context.Background(), cells, terms)
}

// FitContext is Fit that stops, with ctx's error, when ctx ends (it checks
// between columns and rows), and that refuses a model whose matrices would
// take more than MaxModelBytes before it makes them.
func FitContext(ctx context.Context, cells *Cells, terms []Term) (*LinearModel, error) {
	d, err := NewDesign(cells.Factors, terms)
	if err != nil {
		return nil, err
	}
	p := len(cells.Responses)
	if p == 0 {
		return nil, fmt.Errorf("no responses to fit")
	}
	list := cells.List()
	if len(list) == 0 {
		return nil, fmt.Errorf("no observations to fit")
	}
	k := len(d.Columns)
	if need := modelBytes(float64(len(list)), float64(k)); need > MaxModelBytes {
		t, cols := d.largestTerm()
		return nil, tooLarge(fmt.Sprintf("the model matrix, %d observed cells by %d columns,", len(list), k), need, t, cols)
	}
	a := make([][]float64, len(list))
	b := make([][]float64, len(list))
	within := make([]float64, p*p)
	n := 0.0
	for i, cl := range list {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		w := math.Sqrt(cl.N)
		a[i] = make([]float64, k)
		d.Row(cl.Codes, a[i])
		for j := range a[i] {
			a[i][j] *= w
		}
		b[i] = make([]float64, p)
		for r := range b[i] {
			b[i][r] = w * cl.Mean[r]
		}
		for x := range within {
			within[x] += cl.Comoment[x]
		}
		n += cl.N
	}
	qr, err := factorQR(ctx, a, b, k)
	if err != nil {
		return nil, err
	}
	m := &LinearModel{Design: d, Responses: cells.Responses, N: n, Rank: qr.rank, ResidualDF: n - float64(qr.rank),
		Aliased: qr.aliased, Skipped: cells.Skipped()}
	if m.ResidualDF <= 0 {
		return nil, ErrNoResidualDF
	}
	// Sequential SSCP: each kept column's effect row belongs to its term.
	m.TermDF = make([]int, len(terms))
	m.TermSSCP = make([][]float64, len(terms))
	for t := range terms {
		m.TermSSCP[t] = make([]float64, p*p)
	}
	for row, j := range qr.pivots {
		t := d.Columns[j].Term
		if t < 0 {
			continue // the intercept
		}
		m.TermDF[t]++
		addOuter(m.TermSSCP[t], b[row])
	}
	m.ResidualSSCP = within
	m.FittedSS = make([]float64, p)
	for row := 0; row < qr.rank; row++ {
		for r := range p {
			m.FittedSS[r] += b[row][r] * b[row][r]
		}
	}
	for row := qr.rank; row < len(b); row++ {
		addOuter(m.ResidualSSCP, b[row])
	}
	// Coefficients and their standard errors.
	m.Coef = make([][]float64, k)
	m.StdErr = make([][]float64, k)
	for j := range m.Coef {
		m.Coef[j] = make([]float64, p)
		m.StdErr[j] = make([]float64, p)
		for r := range p {
			m.Coef[j][r], m.StdErr[j][r] = math.NaN(), math.NaN()
		}
	}
	rinv, err := invertUpper(ctx, qr.r)
	if err != nil {
		return nil, err
	}
	for r := 0; r < p; r++ {
		y := make([]float64, qr.rank)
		for row := range y {
			y[row] = b[row][r]
		}
		coef := solveUpper(qr.r, y)
		sigma2 := m.ResidualSSCP[r*p+r] / m.ResidualDF
		for l, j := range qr.pivots {
			m.Coef[j][r] = coef[l]
			v := 0.0
			for c := l; c < qr.rank; c++ {
				v += rinv[l][c] * rinv[l][c]
			}
			m.StdErr[j][r] = math.Sqrt(v * sigma2)
		}
	}
	return m, nil
}

// addOuter adds e e' to the p x p matrix s.
func addOuter(s, e []float64) {
	p := len(e)
	for a := 0; a < p; a++ {
		for b := 0; b < p; b++ {
			s[a*p+b] += e[a] * e[b]
		}
	}
}

// Coefficient is one row of a response's coefficient table, as
// summary(lm(...)) prints it.
type Coefficient struct {
	Name     string  // the model-matrix column, e.g. "kernelrt"
	Term     string  // the term it belongs to; "(Intercept)" for the intercept
	Estimate float64 // NaN when aliased (R's NA)
	StdError float64
	T        float64
	P        float64 // two-sided, Student t with the residual df
}

// Coefficients returns response r's coefficient table.
func (m *LinearModel) Coefficients(r int) []Coefficient {
	var out []Coefficient
	for j, col := range m.Design.Columns {
		term := "(Intercept)"
		if col.Term >= 0 {
			term = m.Design.Terms[col.Term].String()
		}
		c := Coefficient{Name: col.Name, Term: term, Estimate: m.Coef[j][r], StdError: m.StdErr[j][r]}
		c.T = c.Estimate / c.StdError
		c.P = math.NaN()
		if m.residualNegligible(r) {
			c.StdError, c.T = math.NaN(), math.NaN() // no spread: no test
		}
		if !math.IsNaN(c.T) {
			c.P = 2 * StudentTCDF(-math.Abs(c.T), m.ResidualDF)
		}
		out = append(out, c)
	}
	return out
}
