package stats

import "math"

// rankDQRDC2 is the rank R's qr(x, tol) reports: LINPACK's dqrdc2 as R
// modified it, Householder QR with limited column pivoting. A column whose
// norm, once the kept columns before it are projected out, falls below tol
// times its original norm is negligible and moved to the end; the rank is the
// number of columns kept. The norms of the remaining columns are downdated as
// dqrdc2 does (recomputed when the downdate loses precision), so a matrix on
// the edge gets R's answer, not merely a close one. x (n rows of p) is not
// changed.
func rankDQRDC2(x [][]float64, tol float64) int {
	n := len(x)
	if n == 0 {
		return 0
	}
	p := len(x[0])
	// Work column-major on a copy: a[j] is column j.
	a := make([][]float64, p)
	for j := range a {
		a[j] = make([]float64, n)
		for i := 0; i < n; i++ {
			a[j][i] = x[i][j]
		}
	}
	nrm := func(v []float64) float64 {
		s := 0.0
		for _, e := range v {
			s = math.Hypot(s, e)
		}
		return s
	}
	qraux := make([]float64, p)
	work1 := make([]float64, p)
	work2 := make([]float64, p)
	for j := 0; j < p; j++ {
		qraux[j] = nrm(a[j])
		work1[j], work2[j] = qraux[j], qraux[j]
		if work2[j] == 0 {
			work2[j] = 1
		}
	}
	lup := min(n, p)
	k := p + 1 // 1-based as in the Fortran: columns k..p are negligible
	for l := 1; l <= lup; l++ {
		// Cycle negligible columns from l to the end.
		for l < k && qraux[l-1] < work2[l-1]*tol {
			col, q, w1, w2 := a[l-1], qraux[l-1], work1[l-1], work2[l-1]
			copy(a[l-1:], a[l:])
			copy(qraux[l-1:], qraux[l:])
			copy(work1[l-1:], work1[l:])
			copy(work2[l-1:], work2[l:])
			a[p-1], qraux[p-1], work1[p-1], work2[p-1] = col, q, w1, w2
			k--
		}
		if l == n {
			break
		}
		ll := l - 1
		nrmxl := nrm(a[ll][ll:])
		if nrmxl == 0 {
			continue
		}
		if a[ll][ll] != 0 {
			nrmxl = math.Copysign(nrmxl, a[ll][ll])
		}
		for i := ll; i < n; i++ {
			a[ll][i] /= nrmxl
		}
		a[ll][ll] = 1 + a[ll][ll]
		for j := l; j < p; j++ {
			t := 0.0
			for i := ll; i < n; i++ {
				t -= a[ll][i] * a[j][i]
			}
			t /= a[ll][ll]
			for i := ll; i < n; i++ {
				a[j][i] += t * a[ll][i]
			}
			if qraux[j] == 0 {
				continue
			}
			tt := 1 - (math.Abs(a[j][ll])/qraux[j])*(math.Abs(a[j][ll])/qraux[j])
			tt = math.Max(tt, 0)
			if math.Abs(tt) < 1e-6 {
				qraux[j] = nrm(a[j][ll+1:])
				work1[j] = qraux[j]
			} else {
				qraux[j] *= math.Sqrt(tt)
			}
		}
		qraux[ll] = a[ll][ll]
		a[ll][ll] = -nrmxl
	}
	return min(k-1, n)
}
