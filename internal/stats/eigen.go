package stats

import (
	"errors"
	"math"
)

// errNotPositiveDefinite says a Cholesky factorization met a pivot that is
// not positive.
var errNotPositiveDefinite = errors.New("matrix is not positive definite")

// cholesky returns the lower-triangular L with L L' = a (n x n, row-major).
func cholesky(a []float64, n int) ([]float64, error) {
	l := make([]float64, n*n)
	for j := 0; j < n; j++ {
		s := a[j*n+j]
		for k := 0; k < j; k++ {
			s -= l[j*n+k] * l[j*n+k]
		}
		if !(s > 0) {
			return nil, errNotPositiveDefinite
		}
		d := math.Sqrt(s)
		l[j*n+j] = d
		for i := j + 1; i < n; i++ {
			s := a[i*n+j]
			for k := 0; k < j; k++ {
				s -= l[i*n+k] * l[j*n+k]
			}
			l[i*n+j] = s / d
		}
	}
	return l, nil
}

// generalizedEigenvalues returns the eigenvalues of E^-1 H for symmetric H
// and symmetric positive-definite E (n x n, row-major), in decreasing
// order: with E = L L', they are those of the symmetric L^-1 H L^-T, found
// by Jacobi rotations. el is E's Cholesky factor.
func generalizedEigenvalues(h, el []float64, n int) []float64 {
	// C = L^-1 H L^-T: solve L X = H, then L C' = X'.
	x := make([]float64, n*n)
	for c := 0; c < n; c++ {
		for i := 0; i < n; i++ {
			s := h[i*n+c]
			for k := 0; k < i; k++ {
				s -= el[i*n+k] * x[k*n+c]
			}
			x[i*n+c] = s / el[i*n+i]
		}
	}
	cm := make([]float64, n*n)
	for r := 0; r < n; r++ { // row r of C is L^-1 applied to row r of X
		for i := 0; i < n; i++ {
			s := x[r*n+i]
			for k := 0; k < i; k++ {
				s -= el[i*n+k] * cm[r*n+k]
			}
			cm[r*n+i] = s / el[i*n+i]
		}
	}
	for i := 0; i < n; i++ { // symmetrize the rounding away
		for j := 0; j < i; j++ {
			v := (cm[i*n+j] + cm[j*n+i]) / 2
			cm[i*n+j], cm[j*n+i] = v, v
		}
	}
	return jacobiEigenvalues(cm, n)
}

// jacobiEigenvalues returns the eigenvalues of the symmetric matrix a
// (destroyed) by cyclic Jacobi rotations, in decreasing order.
func jacobiEigenvalues(a []float64, n int) []float64 {
	for sweep := 0; sweep < 100; sweep++ {
		off, diag := 0.0, 0.0
		for i := 0; i < n; i++ {
			diag += a[i*n+i] * a[i*n+i]
			for j := i + 1; j < n; j++ {
				off += a[i*n+j] * a[i*n+j]
			}
		}
		if off <= 1e-32*diag || off == 0 {
			break
		}
		for p := 0; p < n; p++ {
			for q := p + 1; q < n; q++ {
				apq := a[p*n+q]
				if apq == 0 {
					continue
				}
				theta := (a[q*n+q] - a[p*n+p]) / (2 * apq)
				t := math.Copysign(1, theta) / (math.Abs(theta) + math.Sqrt(theta*theta+1))
				c := 1 / math.Sqrt(t*t+1)
				s := t * c
				for k := 0; k < n; k++ { // columns p and q
					akp, akq := a[k*n+p], a[k*n+q]
					a[k*n+p], a[k*n+q] = c*akp-s*akq, s*akp+c*akq
				}
				for k := 0; k < n; k++ { // rows p and q
					apk, aqk := a[p*n+k], a[q*n+k]
					a[p*n+k], a[q*n+k] = c*apk-s*aqk, s*apk+c*aqk
				}
			}
		}
	}
	out := make([]float64, n)
	for i := range out {
		out[i] = a[i*n+i]
	}
	for i := 1; i < n; i++ { // insertion sort, decreasing
		for j := i; j > 0 && out[j] > out[j-1]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
