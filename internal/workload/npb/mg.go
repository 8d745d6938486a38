package npb

import (
	"context"
	"fmt"
	"math"
	"time"
)

// MG: V-cycle multigrid for a 3-D Poisson problem with periodic boundaries,
// right-hand side +1 at ten and -1 at ten random points; verified by the
// L2 norm of the final residual.

// mgClass is the grid size (nx = ny = nz) and the number of V-cycles.
type mgClass struct{ n, nit int }

var mgClasses = map[string]mgClass{"S": {32, 4}, "W": {128, 4}, "A": {256, 4}}

// mgNorm holds NPB's official residual L2 norm per class (NPB 3.3).
var mgNorm = map[string]float64{"S": 0.5307707005734e-04, "W": 0.6467329375339e-05, "A": 0.2433365309069e-05}

const mgEpsilon = 1e-8

// The residual (a) and smoother (c) coefficients of NPB's classes S, W, A.
var (
	mgA = [4]float64{-8.0 / 3.0, 0, 1.0 / 6.0, 1.0 / 12.0}
	mgC = [4]float64{-3.0 / 8.0, 1.0 / 32.0, -1.0 / 64.0, 0}
)

// mgMemory is the bytes a class of MG holds at the peak.
func mgMemory(class string) int64 {
	m := int64(mgClasses[class].n + 2)
	return 3 * 8 * m * m * m * 8 / 7
}

// grid is one level's array of (n+2)^3 points with a layer of periodic
// ghost points on every side; index (i3, i2, i1) with i1 fastest.
type grid struct {
	m int // points per side, n + 2
	v []float64
}

func newGrid(n int) *grid { return &grid{m: n + 2, v: make([]float64, (n+2)*(n+2)*(n+2))} }

func (g *grid) at(i3, i2, i1 int) int { return (i3*g.m+i2)*g.m + i1 }

// mgSolver is the hierarchy of grids: level lt is the finest.
type mgSolver struct {
	lt, threads int
	u, r        []*grid // per level 1..lt
	v           *grid
	scratch     [][4][]float64 // per worker line buffers
}

func newMG(n, threads int) *mgSolver {
	lt := 0
	for 1<<lt < n {
		lt++
	}
	s := &mgSolver{lt: lt, threads: threads, u: make([]*grid, lt+1), r: make([]*grid, lt+1)}
	for k := 1; k <= lt; k++ {
		s.u[k], s.r[k] = newGrid(1<<k), newGrid(1<<k)
	}
	s.v = newGrid(n)
	for range threads {
		var b [4][]float64
		for i := range b {
			b[i] = make([]float64, n+2)
		}
		s.scratch = append(s.scratch, b)
	}
	return s
}

func (s *mgSolver) zero(g *grid) {
	parallelFor(s.threads, len(g.v), func(_, lo, hi int) { clear(g.v[lo:hi]) })
}

// comm3 copies the periodic boundaries into the ghost layers.
func comm3(g *grid) {
	m, u := g.m, g.v
	for i3 := 1; i3 < m-1; i3++ {
		for i2 := 1; i2 < m-1; i2++ {
			u[g.at(i3, i2, 0)] = u[g.at(i3, i2, m-2)]
			u[g.at(i3, i2, m-1)] = u[g.at(i3, i2, 1)]
		}
		for i1 := 0; i1 < m; i1++ {
			u[g.at(i3, 0, i1)] = u[g.at(i3, m-2, i1)]
			u[g.at(i3, m-1, i1)] = u[g.at(i3, 1, i1)]
		}
	}
	plane := m * m
	copy(u[0:plane], u[(m-2)*plane:(m-1)*plane])
	copy(u[(m-1)*plane:m*plane], u[plane:2*plane])
}

// neighbourSums sets, along the line (i3, i2), edge[i1] to the sum of the
// four points that share an edge with it across i2 and i3, and corner[i1]
// to the sum of the four that share only a corner: the partial sums resid
// and psinv both build their stencils from.
func (g *grid) neighbourSums(i3, i2 int, edge, corner []float64) {
	for i1 := 0; i1 < g.m; i1++ {
		edge[i1] = g.v[g.at(i3, i2-1, i1)] + g.v[g.at(i3, i2+1, i1)] + g.v[g.at(i3-1, i2, i1)] + g.v[g.at(i3+1, i2, i1)]
		corner[i1] = g.v[g.at(i3-1, i2-1, i1)] + g.v[g.at(i3-1, i2+1, i1)] + g.v[g.at(i3+1, i2-1, i1)] + g.v[g.at(i3+1, i2+1, i1)]
	}
}

// interiorLines calls line for every interior line (i3, i2) of a grid with
// m points a side, in order within each worker's share of the planes; w is
// the worker, whose scratch line may use.
func (s *mgSolver) interiorLines(m int, line func(w, i3, i2 int)) {
	parallelFor(s.threads, m-2, func(w, lo, hi int) {
		for i3 := lo + 1; i3 < hi+1; i3++ {
			for i2 := 1; i2 < m-1; i2++ {
				line(w, i3, i2)
			}
		}
	})
}

// resid sets r = v - A u on the interior (r may be v) and exchanges borders.
func (s *mgSolver) resid(u, v, r *grid) {
	m := u.m
	s.interiorLines(m, func(w, i3, i2 int) {
		u1, u2 := s.scratch[w][0], s.scratch[w][1]
		u.neighbourSums(i3, i2, u1, u2)
		base := u.at(i3, i2, 0)
		for i1 := 1; i1 < m-1; i1++ {
			r.v[base+i1] = v.v[base+i1] - mgA[0]*u.v[base+i1] -
				mgA[2]*(u2[i1]+u1[i1-1]+u1[i1+1]) - mgA[3]*(u2[i1-1]+u2[i1+1])
		}
	})
	comm3(r)
}

// psinv applies the smoother u = u + C r and exchanges borders.
func (s *mgSolver) psinv(r, u *grid) {
	m := u.m
	s.interiorLines(m, func(w, i3, i2 int) {
		r1, r2 := s.scratch[w][0], s.scratch[w][1]
		r.neighbourSums(i3, i2, r1, r2)
		base := r.at(i3, i2, 0)
		for i1 := 1; i1 < m-1; i1++ {
			u.v[base+i1] = u.v[base+i1] + mgC[0]*r.v[base+i1] +
				mgC[1]*(r.v[base+i1-1]+r.v[base+i1+1]+r1[i1]) +
				mgC[2]*(r2[i1]+r1[i1-1]+r1[i1+1])
		}
	})
	comm3(u)
}

// rprj3 restricts the fine residual r to the coarse grid s by NPB's
// trilinear finite-element projection.
func (s *mgSolver) rprj3(r, c *grid) {
	mj := c.m
	// d = 1: the coarsest level has 2 points a side, so m is never 3.
	parallelFor(s.threads, mj-2, func(w, lo, hi int) {
		x1, y1 := s.scratch[w][2], s.scratch[w][3]
		for j3 := lo + 1; j3 < hi+1; j3++ {
			i3 := 2*j3 - 1
			for j2 := 1; j2 < mj-1; j2++ {
				i2 := 2*j2 - 1
				for j1 := 1; j1 < mj; j1++ {
					i1 := 2*j1 - 1
					x1[i1] = r.v[r.at(i3+1, i2, i1)] + r.v[r.at(i3+1, i2+2, i1)] + r.v[r.at(i3, i2+1, i1)] + r.v[r.at(i3+2, i2+1, i1)]
					y1[i1] = r.v[r.at(i3, i2, i1)] + r.v[r.at(i3+2, i2, i1)] + r.v[r.at(i3, i2+2, i1)] + r.v[r.at(i3+2, i2+2, i1)]
				}
				for j1 := 1; j1 < mj-1; j1++ {
					i1 := 2*j1 - 1
					y2 := r.v[r.at(i3, i2, i1+1)] + r.v[r.at(i3+2, i2, i1+1)] + r.v[r.at(i3, i2+2, i1+1)] + r.v[r.at(i3+2, i2+2, i1+1)]
					x2 := r.v[r.at(i3+1, i2, i1+1)] + r.v[r.at(i3+1, i2+2, i1+1)] + r.v[r.at(i3, i2+1, i1+1)] + r.v[r.at(i3+2, i2+1, i1+1)]
					c.v[c.at(j3, j2, j1)] = 0.5*r.v[r.at(i3+1, i2+1, i1+1)] +
						0.25*(r.v[r.at(i3+1, i2+1, i1)]+r.v[r.at(i3+1, i2+1, i1+2)]+x2) +
						0.125*(x1[i1]+x1[i1+2]+y2) +
						0.0625*(y1[i1]+y1[i1+2])
				}
			}
		}
	})
	comm3(c)
}

// interp adds the trilinear interpolation of the coarse correction z to
// the fine approximation u.
func (s *mgSolver) interp(z, u *grid) {
	mm := z.m
	parallelFor(s.threads, mm-1, func(w, lo, hi int) {
		z1, z2, z3 := s.scratch[w][0], s.scratch[w][1], s.scratch[w][2]
		for i3 := lo; i3 < hi; i3++ {
			for i2 := 0; i2 < mm-1; i2++ {
				for i1 := 0; i1 < mm; i1++ {
					z1[i1] = z.v[z.at(i3, i2+1, i1)] + z.v[z.at(i3, i2, i1)]
					z2[i1] = z.v[z.at(i3+1, i2, i1)] + z.v[z.at(i3, i2, i1)]
					z3[i1] = z.v[z.at(i3+1, i2+1, i1)] + z.v[z.at(i3+1, i2, i1)] + z1[i1]
				}
				for i1 := 0; i1 < mm-1; i1++ {
					zz := z.v[z.at(i3, i2, i1)]
					a := u.at(2*i3, 2*i2, 2*i1)
					u.v[a] += zz
					u.v[a+1] += 0.5 * (z.v[z.at(i3, i2, i1+1)] + zz)
					b := u.at(2*i3, 2*i2+1, 2*i1)
					u.v[b] += 0.5 * z1[i1]
					u.v[b+1] += 0.25 * (z1[i1] + z1[i1+1])
					c := u.at(2*i3+1, 2*i2, 2*i1)
					u.v[c] += 0.5 * z2[i1]
					u.v[c+1] += 0.25 * (z2[i1] + z2[i1+1])
					d := u.at(2*i3+1, 2*i2+1, 2*i1)
					u.v[d] += 0.25 * z3[i1]
					u.v[d+1] += 0.125 * (z3[i1] + z3[i1+1])
				}
			}
		}
	})
}

// norm2 is NPB's norm2u3: the L2 norm sqrt(sum r^2 / n^3) over the interior.
func (s *mgSolver) norm2(r *grid, n int) float64 {
	m := r.m
	sums := make([]float64, s.threads)
	parallelFor(s.threads, m-2, func(w, lo, hi int) {
		sum := 0.0
		for i3 := lo + 1; i3 < hi+1; i3++ {
			for i2 := 1; i2 < m-1; i2++ {
				base := r.at(i3, i2, 0)
				for i1 := 1; i1 < m-1; i1++ {
					x := r.v[base+i1]
					sum += x * x
				}
			}
		}
		sums[w] = sum
	})
	total := 0.0
	for _, v := range sums {
		total += v
	}
	return math.Sqrt(total / (float64(n) * float64(n) * float64(n)))
}

// mg3P is one V-cycle.
func (s *mgSolver) mg3P() {
	for k := s.lt; k >= 2; k-- {
		s.rprj3(s.r[k], s.r[k-1])
	}
	s.zero(s.u[1])
	s.psinv(s.r[1], s.u[1])
	for k := 2; k <= s.lt-1; k++ {
		s.zero(s.u[k])
		s.interp(s.u[k-1], s.u[k])
		s.resid(s.u[k], s.r[k], s.r[k])
		s.psinv(s.r[k], s.u[k])
	}
	s.interp(s.u[s.lt-1], s.u[s.lt])
	s.resid(s.u[s.lt], s.v, s.r[s.lt])
	s.psinv(s.r[s.lt], s.u[s.lt])
}

// zran3 is NPB's right-hand side: fill v with NPB's random numbers, then
// set +1 at the ten largest and -1 at the ten smallest, zero elsewhere.
func (s *mgSolver) zran3(n int) {
	z := s.v
	s.zero(z)
	a1, a2 := powMod46(npbA, int64(n)), powMod46(npbA, int64(n)*int64(n))
	x0 := uint64(seedMain)
	for i3 := 1; i3 <= n; i3++ {
		x1 := x0
		for i2 := 1; i2 <= n; i2++ {
			g := lcg{x: x1}
			start := z.at(i3, i2, 1)
			g.fill(npbA, z.v[start:start+n])
			x1 = mulMod46(x1, a1)
		}
		x0 = mulMod46(x0, a2)
	}
	// The ten largest (ascending, ten[0] smallest of them) and the ten
	// smallest (descending), kept by NPB's bubble in scan order.
	const mm = 10
	type pick struct {
		v   float64
		pos int
	}
	var hi, lo [mm]pick
	for i := range hi {
		hi[i].v, lo[i].v = 0, 1
	}
	m := z.m
	for i3 := 1; i3 < m-1; i3++ {
		for i2 := 1; i2 < m-1; i2++ {
			for i1 := 1; i1 < m-1; i1++ {
				p := z.at(i3, i2, i1)
				x := z.v[p]
				if x > hi[0].v {
					hi[0] = pick{x, p}
					for i := 0; i < mm-1 && hi[i].v > hi[i+1].v; i++ {
						hi[i], hi[i+1] = hi[i+1], hi[i]
					}
				}
				if x < lo[0].v {
					lo[0] = pick{x, p}
					for i := 0; i < mm-1 && lo[i].v < lo[i+1].v; i++ {
						lo[i], lo[i+1] = lo[i+1], lo[i]
					}
				}
			}
		}
	}
	s.zero(z)
	for _, p := range lo {
		z.v[p.pos] = -1
	}
	for _, p := range hi {
		z.v[p.pos] = 1
	}
	comm3(z)
}

func runMG(ctx context.Context, class string, threads int) (result, error) {
	c := mgClasses[class]
	s := newMG(c.n, threads)
	top := s.lt
	// NPB's untimed start-up: one V-cycle, then start again.
	s.zero(s.u[top])
	s.zran3(c.n)
	s.resid(s.u[top], s.v, s.r[top])
	s.mg3P()
	s.resid(s.u[top], s.v, s.r[top])
	s.zero(s.u[top])
	s.zran3(c.n)

	start := time.Now()
	s.resid(s.u[top], s.v, s.r[top])
	s.norm2(s.r[top], c.n)
	for it := 1; it <= c.nit; it++ {
		if err := ctx.Err(); err != nil {
			return result{}, err
		}
		s.mg3P()
		s.resid(s.u[top], s.v, s.r[top])
	}
	rnm2 := s.norm2(s.r[top], c.n)
	secs := time.Since(start).Seconds()
	v, err := verifyMG(class, rnm2)
	if err != nil {
		return result{}, err
	}
	nn := float64(c.n) * float64(c.n) * float64(c.n)
	return result{seconds: secs, mops: 58 * float64(c.nit) * nn * 1e-6 / secs,
		size: fmt.Sprintf("%dx%dx%d", c.n, c.n, c.n), verify: v}, nil
}

// verifyMG compares the residual norm with NPB's official value.
func verifyMG(class string, rnm2 float64) (string, error) {
	e, err := checkOfficial("L2 norm of the residual", rnm2, mgNorm[class], mgEpsilon)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("L2 norm %.13e, relative error %.1e <= %.0e", rnm2, e, mgEpsilon), nil
}
