package cpu

import (
	"errors"
	"fmt"
	"math"
)

// errSingular is returned when a pivot is exactly zero.
var errSingular = errors.New("matrix is singular")

// luBlock is the width of the column panels of the blocked factorization:
// a panel of 1000 rows is 1000*luBlock*8 = 256 KB, which stays in the L2
// cache of even small ARM boards (32 to 64 all ran within 5 % on x86).
const luBlock = 32

// factorLU overwrites m with its LU factorization with partial pivoting
// (L unit lower, U upper, both in place) and records in piv[k] the row that
// was swapped with row k. It is a right-looking blocked algorithm as in
// LAPACK's dgetrf: factor a panel of luBlock columns, solve for the block
// row of U beside it, and update the trailing matrix with a matrix product
// whose inner loops run over contiguous rows.
func factorLU(m matrix, piv []int) error {
	n := m.n
	pack := make([]float64, n*luBlock)
	for k0 := 0; k0 < n; k0 += luBlock {
		k1 := min(k0+luBlock, n)
		if err := factorPanel(m, piv, k0, k1); err != nil {
			return err
		}
		if k1 == n {
			break
		}
		// U12 = inverse(L11) * A12, row by row: rows below j in the panel
		// lose multiples of row j, all over contiguous memory.
		for j := k0; j < k1; j++ {
			uj := m.row(j)[k1:]
			for i := j + 1; i < k1; i++ {
				ri := m.row(i)
				axpy(-ri[j], uj, ri[k1:])
			}
		}
		updateTrailing(m, pack, k0, k1)
	}
	return nil
}

// factorPanel factors columns k0..k1-1 on rows k0..n-1 without blocking,
// swapping whole rows so that the pivots apply to the left and right parts
// too.
func factorPanel(m matrix, piv []int, k0, k1 int) error {
	n := m.n
	for j := k0; j < k1; j++ {
		p, big := j, math.Abs(m.a[j*n+j])
		for i := j + 1; i < n; i++ {
			if v := math.Abs(m.a[i*n+j]); v > big {
				p, big = i, v
			}
		}
		piv[j] = p
		if big == 0 {
			return fmt.Errorf("%w: column %d has no non-zero pivot", errSingular, j)
		}
		if p != j {
			rj, rp := m.row(j), m.row(p)
			for c := range rj {
				rj[c], rp[c] = rp[c], rj[c]
			}
		}
		uj := m.row(j)[j+1 : k1]
		inv := 1 / m.a[j*n+j]
		for i := j + 1; i < n; i++ {
			ri := m.row(i)
			l := ri[j] * inv
			ri[j] = l
			axpy(-l, uj, ri[j+1:k1])
		}
	}
	return nil
}

// solveLU solves A x = b in place of b, given A's factors from factorLU.
func solveLU(m matrix, piv []int, b []float64) {
	n := m.n
	for k := 0; k < n; k++ {
		if p := piv[k]; p != k {
			b[k], b[p] = b[p], b[k]
		}
	}
	for i := 1; i < n; i++ { // L y = P b, L unit lower
		b[i] -= dot(m.row(i)[:i], b[:i])
	}
	for i := n - 1; i >= 0; i-- { // U x = y
		ri := m.row(i)
		b[i] = (b[i] - dot(ri[i+1:], b[i+1:])) / ri[i]
	}
}

// axpy does y += alpha*x over len(x) elements.
func axpy(alpha float64, x, y []float64) {
	y = y[:len(x)]
	for i, v := range x {
		y[i] += alpha * v
	}
}

// dot returns the dot product of x and y over len(x) elements.
func dot(x, y []float64) float64 {
	y = y[:len(x)]
	var s0, s1 float64
	i := 0
	for ; i+1 < len(x); i += 2 {
		s0 += x[i] * y[i]
		s1 += x[i+1] * y[i+1]
	}
	if i < len(x) {
		s0 += x[i] * y[i]
	}
	return s0 + s1
}
