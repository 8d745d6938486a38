package npb

import (
	"context"
	"fmt"
	"math"
	"sort"
	"time"
)

// CG: the inverse power method on a random sparse symmetric positive
// definite matrix, each step solving A z = x by 25 unpreconditioned
// conjugate gradient iterations; verified by the eigenvalue estimate zeta.

// cgClass is NPB's problem: order, nonzeros per generated vector,
// iterations and the eigenvalue shift.
type cgClass struct {
	na, nonzer, niter int
	shift             float64
}

var cgClasses = map[string]cgClass{
	"S": {1400, 7, 15, 10},
	"W": {7000, 8, 15, 12},
	"A": {14000, 11, 15, 20},
}

// cgZeta holds NPB's official zeta per class.
var cgZeta = map[string]float64{"S": 8.5971775078648, "W": 10.362595087124, "A": 17.130235054029}

const (
	cgRcond   = 0.1
	cgIters   = 25 // CG iterations per outer step (cgitmax)
	cgEpsilon = 1e-10
)

// cgMemory is the bytes a class of CG holds at the peak.
func cgMemory(class string) int64 {
	c := cgClasses[class]
	return int64(c.na) * int64((c.nonzer+1)*(c.nonzer+1)) * 12 * 2
}

// sparseMatrix is a matrix in compressed rows.
type sparseMatrix struct {
	rowstr []int
	colidx []int
	a      []float64
}

// makeCGMatrix is NPB's makea: the sum over rows i of size_i * v_i v_i^T,
// v_i a random sparse vector with element i set to 0.5, size_i falling
// geometrically to rcond, plus (rcond - shift) on the diagonal.
func makeCGMatrix(c cgClass) sparseMatrix {
	n := c.na
	nn1 := 1
	for nn1 < n {
		nn1 *= 2
	}
	g := lcg{x: seedMain}
	g.next(npbA) // NPB draws zeta = randlc(tran, amult) first
	type elt struct {
		col int
		v   float64
	}
	vecs := make([][]elt, n)
	for i := 0; i < n; i++ {
		// sprnvc: nonzer distinct random positions in 1..n with random values.
		var v []elt
		for len(v) < c.nonzer {
			val := g.next(npbA)
			pos := int(float64(nn1)*g.next(npbA)) + 1
			if pos > n {
				continue
			}
			dup := false
			for _, e := range v {
				dup = dup || e.col == pos
			}
			if !dup {
				v = append(v, elt{pos, val})
			}
		}
		// vecset: element i+1 becomes 0.5.
		set := false
		for k := range v {
			if v[k].col == i+1 {
				v[k].v, set = 0.5, true
			}
		}
		if !set {
			v = append(v, elt{i + 1, 0.5})
		}
		for k := range v {
			v[k].col--
		}
		vecs[i] = v
	}
	// sparse: sum the outer products row by row, duplicates added in order.
	rows := make([][]elt, n)
	size, ratio := 1.0, math.Pow(cgRcond, 1/float64(n))
	for i, v := range vecs {
		for _, ej := range v {
			scale := size * ej.v
			row := rows[ej.col]
			for _, ec := range v {
				va := ec.v * scale
				if ec.col == ej.col && ej.col == i {
					va = va + cgRcond - c.shift
				}
				found := false
				for k := range row {
					if row[k].col == ec.col {
						row[k].v += va
						found = true
						break
					}
				}
				if !found {
					row = append(row, elt{ec.col, va})
				}
			}
			rows[ej.col] = row
		}
		size *= ratio
	}
	m := sparseMatrix{rowstr: make([]int, n+1)}
	for j, row := range rows {
		sort.Slice(row, func(a, b int) bool { return row[a].col < row[b].col })
		for _, e := range row {
			m.colidx = append(m.colidx, e.col)
			m.a = append(m.a, e.v)
		}
		m.rowstr[j+1] = len(m.a)
	}
	return m
}

// cgSolver holds the vectors of the conjugate gradient iteration.
type cgSolver struct {
	m             sparseMatrix
	n, threads    int
	x, z, p, q, r []float64
	partial       []float64
}

// mul sets out = A v, rows split among the workers.
func (s *cgSolver) mul(out, v []float64) {
	parallelFor(s.threads, s.n, func(_, lo, hi int) {
		for j := lo; j < hi; j++ {
			sum := 0.0
			for k := s.m.rowstr[j]; k < s.m.rowstr[j+1]; k++ {
				sum += s.m.a[k] * v[s.m.colidx[k]]
			}
			out[j] = sum
		}
	})
}

// dot is a.b, reduced per worker as OpenMP's reduction does.
func (s *cgSolver) dot(a, b []float64) float64 {
	parallelFor(s.threads, s.n, func(w, lo, hi int) {
		sum := 0.0
		for j := lo; j < hi; j++ {
			sum += a[j] * b[j]
		}
		s.partial[w] = sum
	})
	total := 0.0
	for w := range s.partial {
		total += s.partial[w]
		s.partial[w] = 0
	}
	return total
}

// conjGrad solves A z = x approximately by cgIters CG iterations and
// returns the residual norm ||x - A z||.
func (s *cgSolver) conjGrad() float64 {
	for j := 0; j < s.n; j++ {
		s.q[j], s.z[j], s.r[j], s.p[j] = 0, 0, s.x[j], s.x[j]
	}
	rho := s.dot(s.r, s.r)
	for it := 0; it < cgIters; it++ {
		s.mul(s.q, s.p)
		alpha := rho / s.dot(s.p, s.q)
		rho0 := rho
		parallelFor(s.threads, s.n, func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				s.z[j] += alpha * s.p[j]
				s.r[j] -= alpha * s.q[j]
			}
		})
		rho = s.dot(s.r, s.r)
		beta := rho / rho0
		parallelFor(s.threads, s.n, func(_, lo, hi int) {
			for j := lo; j < hi; j++ {
				s.p[j] = s.r[j] + beta*s.p[j]
			}
		})
	}
	s.mul(s.r, s.z)
	sum := 0.0
	for j := 0; j < s.n; j++ {
		d := s.x[j] - s.r[j]
		sum += d * d
	}
	return math.Sqrt(sum)
}

// step is one outer iteration: solve, zeta = shift + 1/(x.z), x = z/||z||.
func (s *cgSolver) step(shift float64) float64 {
	s.conjGrad()
	xz, zz := s.dot(s.x, s.z), s.dot(s.z, s.z)
	norm := 1 / math.Sqrt(zz)
	for j := 0; j < s.n; j++ {
		s.x[j] = norm * s.z[j]
	}
	return shift + 1/xz
}

func runCG(ctx context.Context, class string, threads int) (result, error) {
	c := cgClasses[class]
	n := c.na
	s := &cgSolver{m: makeCGMatrix(c), n: n, threads: threads, partial: make([]float64, threads)}
	for _, v := range []*[]float64{&s.x, &s.z, &s.p, &s.q, &s.r} {
		*v = make([]float64, n)
	}
	ones := func() {
		for j := range s.x {
			s.x[j] = 1
		}
	}
	ones()
	s.step(c.shift) // NPB's untimed iteration
	ones()
	var zeta float64
	start := time.Now()
	for it := 1; it <= c.niter; it++ {
		if err := ctx.Err(); err != nil {
			return result{}, err
		}
		zeta = s.step(c.shift)
	}
	secs := time.Since(start).Seconds()
	v, err := verifyCG(class, zeta)
	if err != nil {
		return result{}, err
	}
	nz := float64(c.nonzer * (c.nonzer + 1))
	flops := float64(2*c.niter*n) * (3 + nz + 25*(5+nz) + 3)
	return result{seconds: secs, mops: flops / secs / 1e6, size: fmt.Sprint(n), verify: v}, nil
}

// verifyCG compares zeta with NPB's official value.
func verifyCG(class string, zeta float64) (string, error) {
	e, err := checkOfficial("zeta", zeta, cgZeta[class], cgEpsilon)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("zeta %.13e, relative error %.1e <= %.0e", zeta, e, cgEpsilon), nil
}
