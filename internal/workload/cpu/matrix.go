package cpu

import (
	"fmt"
	"math"
	"math/rand/v2"
)

// matrix is a dense n x n matrix of float64 stored row by row: element
// (i, j) is at a[i*n+j], so a row is contiguous in memory.
type matrix struct {
	n int
	a []float64
}

func newMatrix(n int) matrix { return matrix{n: n, a: make([]float64, n*n)} }

// row returns row i as a slice that aliases the matrix.
func (m matrix) row(i int) []float64 { return m.a[i*m.n : (i+1)*m.n] }

// fillRandom fills m with numbers drawn uniformly from [-0.5, 0.5), as
// HPL's generator does, from a PCG generator with a fixed seed, so every run
// and every environment solves the same system; b gets the row sums, so the
// exact solution is all ones. (LINPACK's own matgen is not used: its
// generator repeats every 16384 numbers, which makes the matrix singular
// whenever n divides 16384, e.g. n = 512 or 1024.)
func fillRandom(m matrix, b []float64) {
	r := rand.New(rand.NewPCG(1325, 3125))
	for i := range m.a {
		m.a[i] = r.Float64() - 0.5
	}
	for i := range b[:m.n] {
		var s float64
		for _, v := range m.row(i) {
			s += v
		}
		b[i] = s
	}
}

// maxResidual is the largest residual HPL accepts: ||Ax-b|| / (||A|| ||x|| n eps)
// above 16 means the solve lost more accuracy than rounding explains.
const maxResidual = 16.0

// normalizedResidual returns ||Ax - b||_inf / (||A||_inf ||x||_inf n eps),
// the check of HPL and LINPACK (which uses the largest element as ||A||),
// with eps the float64 machine epsilon 2^-52. A and b must be the original
// system, not the factored one.
func normalizedResidual(m matrix, x, b []float64) float64 {
	n := m.n
	var resid, normA, normX float64
	for i := 0; i < n; i++ {
		var ax, rowSum float64
		for j, v := range m.row(i) {
			ax += v * x[j]
			rowSum += math.Abs(v)
		}
		resid = math.Max(resid, math.Abs(ax-b[i]))
		normA = math.Max(normA, rowSum)
		normX = math.Max(normX, math.Abs(x[i]))
	}
	eps := math.Nextafter(1, 2) - 1
	return resid / (normA * normX * float64(n) * eps)
}

// checkResidual returns an error when the residual is not finite or too large.
func checkResidual(r float64) error {
	if math.IsNaN(r) || math.IsInf(r, 0) || r > maxResidual {
		return fmt.Errorf("residual check failed: ||Ax-b||/(||A|| ||x|| n eps) = %g, more than %g: the solution is wrong (faulty CPU or memory, or a bug)", r, maxResidual)
	}
	return nil
}
