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
var Stream = workload.DefineFrom(workload.Info{
	Name:     "mem.stream",
	Summary:  "memory bandwidth of the STREAM kernels copy, scale, add and triad",
	SeedTool: "STREAM",
	Metrics: []workload.Metric{
		{Name: "copy_MBps", Unit: "MB/s", Label: "copy MB/s", HigherIsBetter: true, Description: streamRate("c = a", "2")},
		{Name: "scale_MBps", Unit: "MB/s", Label: "scale MB/s", HigherIsBetter: true, Description: streamRate("b = 3c", "2")},
		{Name: "add_MBps", Unit: "MB/s", Label: "add MB/s", HigherIsBetter: true, Description: streamRate("c = a + b", "3")},
		{Name: "triad_MBps", Unit: "MB/s", Label: "triad MB/s", HigherIsBetter: true, Description: streamRate("a = b + 3c", "3")},
	},
}, func() *streamConfig { return &streamConfig{sysRoot: sysCPU} })

// streamRate describes a kernel's figure: the kernel, and the arrays'
// elements it moves per iteration.
func streamRate(kernel, bytes string) string {
	return "best " + kernel + " rate over ntimes iterations, excluding the first: " +
		bytes + " x 8 x array_size bytes / fastest time / 1e6, as STREAM counts"
}

// minStreamElements is STREAM's floor for the array size.
const minStreamElements = 2_000_000

type streamConfig struct {
	elements int // per array
	mib      float64
	maxMiB   float64 // the cap on STREAM's rule, 0 for none
	ntimes   int
	threads  int
	sizing   string // how elements was chosen
	sysRoot  string // where the cache sizes are read (sysCPU)
}

// Declare implements workload.Declarer.
func (c *streamConfig) Declare(d *workload.Decl) {
	d.Int(&c.elements, "array_size", 0, "elements per array; 0 picks STREAM's rule: at least 4 times the sum of the last-level caches and at least 2,000,000")
	d.Min(0, "automatic")
	d.Float(&c.mib, "array_MiB", 0, "size of each array in MiB (2^20 bytes), as STREAM prints \"Memory per array\"; overrides array_size when above 0 (seed 004: 25.4, 76.3, 228.9)")
	d.Float(&c.maxMiB, "max_array_MiB", 0, "the most MiB per array when STREAM's rule sizes them (array_size and array_MiB 0); 0: no cap. Below the rule the arrays may partly fit in the cache, and the note array_sizing says so; the quick study caps them at 128 so that a run stays short where a VM reports its host's whole last-level cache (260 MiB: arrays of 1,040 MiB, 12 s a run)")
	d.Int(&c.ntimes, "ntimes", 10, "iterations of the four kernels; the first is not counted (STREAM's NTIMES)")
	d.Int(&c.threads, "threads", 1, "goroutines per kernel, each on a contiguous chunk of the arrays")
	d.Min(1)
}

// streamConfig keeps these optional abilities (checked by the compiler).
var _ workload.MemoryNeeder = (*streamConfig)(nil)

// Check implements workload.Checker; it also sizes the arrays.
func (c *streamConfig) Check() error {
	mib, sysRoot := c.mib, c.sysRoot
	if mib < 0 || mib > 1<<20 {
		return fmt.Errorf("parameter array_MiB: %v must be 0 (use array_size) or a size per array in MiB, e.g. 76.3", mib)
	}
	if mib > 0 {
		c.elements = int(mib*(1<<20)/8 + 0.5)
	}
	if c.maxMiB < 0 || c.maxMiB > 1<<20 {
		return fmt.Errorf("parameter max_array_MiB: %v must be 0 (no cap) or the most MiB per array, e.g. 128", c.maxMiB)
	}
	switch {
	case c.ntimes < 2:
		return fmt.Errorf("parameter ntimes: %d is too few; the first iteration is not counted, so use 2 or more (STREAM uses 10)", c.ntimes)
	}
	if mib > 0 {
		c.sizing = "array_MiB parameter"
	} else if c.elements > 0 {
		c.sizing = "array_size parameter"
	} else {
		llc, desc, err := lastLevelCache(sysRoot)
		if err != nil {
			return fmt.Errorf("choosing the array size: %w; set array_size", err)
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
		if most := max(int(c.maxMiB*(1<<20)/8), minStreamElements); c.maxMiB > 0 && c.elements > most {
			c.elements = most
			c.sizing += fmt.Sprintf(", capped at %.1f MiB by max_array_MiB: below STREAM's rule, so the arrays may partly fit in that cache", float64(c.elements)*8/(1<<20))
		}
	}
	if c.threads > c.elements {
		return fmt.Errorf("parameter threads: %d is more than the %d array elements", c.threads, c.elements)
	}
	return checkFits(3*8*int64(c.elements), "array_size")
}

// Run implements workload.Config.
func (c *streamConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
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
func (c *streamConfig) MemoryBytes() int64 {
	return 3 * 8 * int64(c.elements)
}
