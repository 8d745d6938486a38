package cpu

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Linpack is the cpu.linpack workload: it solves a dense n x n system by LU
// factorization with partial pivoting, checks the answer, and rates the
// solve in MFLOPS with LINPACK's operation count.
var Linpack = workload.Define[linpackConfig](workload.Info{
	Name:     "cpu.linpack",
	Summary:  "dense linear system solve by blocked LU with partial pivoting, as LINPACK",
	SeedTool: "linpack",
	Metrics: []workload.Metric{
		{Name: "mflops", Unit: "MFLOPS", Label: "MFLOPS", HigherIsBetter: true,
			Description: "(2/3 n^3 + 2 n^2) / time_s / 1e6 for the fastest of the repeated solves"},
		{Name: "time_s", Unit: "s", Label: "solve s",
			Description: "wall time of the fastest solve: factorization plus forward and back substitution", Secondary: true},
		{Name: "residual", Unit: "1", Label: "residual",
			Description: "||Ax-b||_inf / (||A||_inf ||x||_inf n eps) of the fastest solve; a run fails above 16", Secondary: true},
	},
})

// linpackConfig is cpu.linpack's parameters, checked.
type linpackConfig struct {
	n, repeats int
}

// Declare implements workload.Declarer.
func (c *linpackConfig) Declare(d *workload.Decl) {
	d.Int(&c.n, "n", 1000, "order of the system (LINPACK 1000 is the classic size)")
	d.Range(2, 46340) // n*n must fit a 32-bit int
	d.Int(&c.repeats, "repeats", 20, "solves of the same system; the best one is reported")
	d.Min(1)
}

// linpackConfig keeps these optional abilities (checked by the compiler).
var _ workload.MemoryNeeder = (*linpackConfig)(nil)

// Check implements workload.Checker.
func (c *linpackConfig) Check() error {
	// 46340^2 is the largest square below 2^31: n*n must fit a 32-bit int.
	return nil
}

// Run implements workload.Config.
func (c *linpackConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	n, repeats := c.n, c.repeats
	e.Note("matrix_MiB", strconv.FormatFloat(float64(n)*float64(n)*8/(1<<20), 'f', 1, 64))
	e.Note("block", strconv.Itoa(luBlock))
	orig, b := newMatrix(n), make([]float64, n)
	fillRandom(orig, b)
	work, x, piv := newMatrix(n), make([]float64, n), make([]int, n)

	var best time.Duration
	var bestResidual float64
	for r := 0; r < repeats; r++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		copy(work.a, orig.a)
		copy(x, b)
		elapsed, err := solve(work, piv, x)
		if err != nil {
			return fmt.Errorf("solve %d of %d: %w", r+1, repeats, err)
		}
		res := normalizedResidual(orig, x, b)
		if err := checkResidual(res); err != nil {
			return fmt.Errorf("solve %d of %d: %w", r+1, repeats, err)
		}
		if r == 0 || elapsed < best {
			best, bestResidual = elapsed, res
		}
	}
	fn := float64(n)
	flops := 2.0/3.0*fn*fn*fn + 2*fn*fn
	e.Sample("mflops", flops/best.Seconds()/1e6)
	e.Sample("time_s", best.Seconds())
	e.Sample("residual", bestResidual)
	return nil
}

// solve factors a and solves for x in place, and returns the time it took.
func solve(a matrix, piv []int, x []float64) (time.Duration, error) {
	start := time.Now()
	if err := factorLU(a, piv); err != nil {
		return 0, err
	}
	solveLU(a, piv, x)
	return time.Since(start), nil
}

// MemoryBytes implements workload.MemoryNeeder: the matrix, its copy and the vectors.
func (c *linpackConfig) MemoryBytes() int64 {
	return 2*8*int64(c.n)*int64(c.n) + 8*8*int64(c.n)
}
