package mem

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Stream is the mem.stream workload: STREAM's four kernels over three
// float64 arrays, each much larger than the last-level cache.
type Stream struct{}

func init() { workload.Register(Stream{}) }

// minStreamElements is STREAM's floor for the array size.
const minStreamElements = 2_000_000

// Info implements workload.Workload.
func (Stream) Info() workload.Info {
	rate := func(kernel, bytes string) string {
		return "best " + kernel + " rate over ntimes iterations, excluding the first: " +
			bytes + " x 8 x array_size bytes / fastest time / 1e6, as STREAM counts"
	}
	return workload.Info{
		Name:     "mem.stream",
		Summary:  "memory bandwidth of the STREAM kernels copy, scale, add and triad",
		SeedTool: "STREAM",
		Params: []workload.Param{
			{Name: "array_size", Default: 0, Description: "elements per array; 0 picks STREAM's rule: at least 4 times the sum of the last-level caches and at least 2,000,000"},
			{Name: "array_MiB", Default: 0.0, Description: "size of each array in MiB (2^20 bytes), as STREAM prints \"Memory per array\"; overrides array_size when above 0 (seed 004: 25.4, 76.3, 228.9)"},
			{Name: "ntimes", Default: 10, Description: "iterations of the four kernels; the first is not counted (STREAM's NTIMES)"},
			{Name: "threads", Default: 1, Description: "goroutines per kernel, each on a contiguous chunk of the arrays"},
		},
		Metrics: []workload.Metric{
			{Name: "copy_MBps", Unit: "MB/s", Label: "copy MB/s", HigherIsBetter: true, Description: rate("c = a", "2")},
			{Name: "scale_MBps", Unit: "MB/s", Label: "scale MB/s", HigherIsBetter: true, Description: rate("b = 3c", "2")},
			{Name: "add_MBps", Unit: "MB/s", Label: "add MB/s", HigherIsBetter: true, Description: rate("c = a + b", "3")},
			{Name: "triad_MBps", Unit: "MB/s", Label: "triad MB/s", HigherIsBetter: true, Description: rate("a = b + 3c", "3")},
		},
	}
}

type streamConfig struct {
	elements int // per array
	ntimes   int
	threads  int
	sizing   string // how elements was chosen
}

// Validate checks p, already merged with the defaults, without running.
func (Stream) Validate(p workload.Params) error { _, err := parseStream(p, sysCPU); return err }

func parseStream(p workload.Params, sysRoot string) (streamConfig, error) {
	var c streamConfig
	var err error
	if c.elements, err = p.Int("array_size"); err != nil {
		return c, err
	}
	mib, err := p.Float("array_MiB")
	if err != nil {
		return c, err
	}
	if mib < 0 || mib > 1<<20 {
		return c, fmt.Errorf("parameter array_MiB: %v must be 0 (use array_size) or a size per array in MiB, e.g. 76.3", mib)
	}
	if mib > 0 {
		c.elements = int(mib*(1<<20)/8 + 0.5)
	}
	if c.ntimes, err = p.Int("ntimes"); err != nil {
		return c, err
	}
	if c.threads, err = p.Int("threads"); err != nil {
		return c, err
	}
	switch {
	case c.elements < 0:
		return c, fmt.Errorf("parameter array_size: %d must be 0 (automatic) or a number of elements", c.elements)
	case c.ntimes < 2:
		return c, fmt.Errorf("parameter ntimes: %d is too few; the first iteration is not counted, so use 2 or more (STREAM uses 10)", c.ntimes)
	case c.threads < 1:
		return c, fmt.Errorf("parameter threads: %d must be 1 or more", c.threads)
	}
	if mib > 0 {
		c.sizing = "array_MiB parameter"
	} else if c.elements > 0 {
		c.sizing = "array_size parameter"
	} else {
		llc, desc, err := lastLevelCache(sysRoot)
		if err != nil {
			return c, fmt.Errorf("choosing the array size: %w; set array_size", err)
		}
		c.elements = minStreamElements
		c.sizing = "STREAM minimum (no cache sizes in " + sysRoot + ")"
		if llc > 0 {
			c.sizing = "STREAM minimum; last-level cache " + desc
			if n := 4 * llc / 8; n > minStreamElements {
				c.elements = int(min(n, math.MaxInt32))
				c.sizing = "4 x last-level cache " + desc
			}
		}
	}
	if c.threads > c.elements {
		return c, fmt.Errorf("parameter threads: %d is more than the %d array elements", c.threads, c.elements)
	}
	return c, checkFits(3*8*int64(c.elements), "array_size")
}

// Run implements workload.Workload.
func (Stream) Run(ctx context.Context, p workload.Params, _ workload.Env, e workload.Emitter) error {
	c, err := parseStream(p, sysCPU)
	if err != nil {
		return err
	}
	e.Note("array_size", strconv.Itoa(c.elements))
	e.Note("array_MiB", strconv.FormatFloat(float64(c.elements)*8/(1<<20), 'f', 1, 64))
	e.Note("array_sizing", c.sizing)
	e.Note("threads", strconv.Itoa(c.threads))
	e.Note("gomaxprocs", strconv.Itoa(runtime.GOMAXPROCS(0)))

	s := newStreamArrays(c.elements, c.threads)
	best := [numKernels]time.Duration{}
	for k := 0; k < c.ntimes; k++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		times := s.iterate()
		if k == 0 {
			continue // STREAM skips the first iteration
		}
		for i, t := range times {
			if k == 1 || t < best[i] {
				best[i] = t
			}
		}
	}
	if err := s.check(c.ntimes); err != nil {
		return err
	}
	for i, name := range kernelMetrics {
		bytes := float64(kernelArrays[i]) * 8 * float64(c.elements)
		e.Sample(name, bytes/best[i].Seconds()/1e6)
	}
	return nil
}

// MemoryBytes implements workload.MemoryNeeder: STREAM's three arrays.
func (Stream) MemoryBytes(p workload.Params) int64 {
	c, err := parseStream(p, sysCPU)
	if err != nil {
		return 0
	}
	return 3 * 8 * int64(c.elements)
}
