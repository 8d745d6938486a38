package stats

import (
	"context"
	"math"
)

// aliasTolerance is R's: lm's QR (LINPACK dqrdc2) treats a column whose norm,
// after the columns before it are projected out, is below this fraction of
// its original norm as a linear combination of them (aliased).
const aliasTolerance = 1e-7

// householderQR factors A (m x k, row-major rows) as Q R by Householder
// reflections, column by column, and applies the same reflections to B
// (m x p). A column that is (numerically) a combination of earlier ones is
// marked aliased and left out, as R's lm does, so R is rank x rank over the
// remaining columns in order. A and B are overwritten: B becomes Q'B, the
// effects, whose first rank rows belong to the kept columns and whose other
// rows are the residual part.
type householderQR struct {
	rank    int
	pivots  []int       // the kept columns of A, in order
	aliased []bool      // per column of A
	r       [][]float64 // rank x rank, upper triangular, over pivots
}

// factorQR returns ctx's error, checked before each column, when ctx ends.
func factorQR(ctx context.Context, a [][]float64, b [][]float64, k int) (householderQR, error) {
	m := len(a)
	out := householderQR{aliased: make([]bool, k)}
	norm0 := make([]float64, k)
	for j := 0; j < k; j++ {
		s := 0.0
		for i := 0; i < m; i++ {
			s = math.Hypot(s, a[i][j])
		}
		norm0[j] = s
	}
	row := 0
	for j := 0; j < k; j++ {
		if err := ctx.Err(); err != nil {
			return householderQR{}, err
		}
		if row == m {
			out.aliased[j] = true
			continue
		}
		norm := 0.0
		for i := row; i < m; i++ {
			norm = math.Hypot(norm, a[i][j])
		}
		if norm0[j] == 0 || norm < aliasTolerance*norm0[j] {
			out.aliased[j] = true
			continue
		}
		alpha := -math.Copysign(norm, a[row][j])
		// v = x - alpha e1, stored in a column buffer.
		v := make([]float64, m-row)
		for i := row; i < m; i++ {
			v[i-row] = a[i][j]
		}
		v[0] -= alpha
		vv := 0.0
		for _, x := range v {
			vv += x * x
		}
		if vv > 0 {
			reflect := func(get func(i int) float64, set func(i int, x float64)) {
				dot := 0.0
				for i := range v {
					dot += v[i] * get(row+i)
				}
				f := 2 * dot / vv
				for i := range v {
					set(row+i, get(row+i)-f*v[i])
				}
			}
			for c := j + 1; c < k; c++ {
				reflect(func(i int) float64 { return a[i][c] }, func(i int, x float64) { a[i][c] = x })
			}
			for c := range b[0] {
				reflect(func(i int) float64 { return b[i][c] }, func(i int, x float64) { b[i][c] = x })
			}
		}
		a[row][j] = alpha
		for i := row + 1; i < m; i++ {
			a[i][j] = 0
		}
		out.pivots = append(out.pivots, j)
		row++
	}
	out.rank = row
	out.r = make([][]float64, row)
	for i := range out.r {
		out.r[i] = make([]float64, row)
		for l, j := range out.pivots {
			out.r[i][l] = a[i][j]
		}
	}
	return out, nil
}

// solveUpper solves R x = y for upper-triangular R.
func solveUpper(r [][]float64, y []float64) []float64 {
	n := len(r)
	x := make([]float64, n)
	for i := n - 1; i >= 0; i-- {
		s := y[i]
		for j := i + 1; j < n; j++ {
			s -= r[i][j] * x[j]
		}
		x[i] = s / r[i][i]
	}
	return x
}

// invertUpper returns the inverse of upper-triangular R, or ctx's error,
// checked before each column, when ctx ends.
func invertUpper(ctx context.Context, r [][]float64) ([][]float64, error) {
	n := len(r)
	inv := make([][]float64, n)
	for i := range inv {
		inv[i] = make([]float64, n)
	}
	for c := 0; c < n; c++ {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		e := make([]float64, n)
		e[c] = 1
		col := solveUpper(r, e)
		for i := range col {
			inv[i][c] = col[i]
		}
	}
	return inv, nil
}
