package npb

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/workload"
)

// classes are the NPB problem classes built here, smallest first: the ones
// seed 004 ran.
var classes = []string{"S", "W", "A"}

// result is what one kernel run measured and how it verified.
type result struct {
	seconds float64 // timed section, as NPB times it
	mops    float64 // NPB's operation count / seconds / 1e6
	size    string  // problem size as NPB prints it, e.g. "64x64x64"
	verify  string  // the verified quantity, its official value and the error
}

// kernel is one NPB kernel: how to run a class and what it costs in memory.
type kernel struct {
	name    string // workload name suffix: "is", "ep", ...
	title   string // NPB's name: "Integer Sort"
	summary string
	opType  string // NPB's "Operation type"
	mopsDoc string // the operation count behind Mop/s
	run     func(ctx context.Context, class string, threads int) (result, error)
	memory  func(class string) int64 // bytes held at the peak
}

// Kernel is one NPB kernel as a boxtax workload (npb.is, npb.ep, ...).
type Kernel struct{ k *kernel }

// built are the kernels built here, one a file: each is the workload
// npb.<name>.
var built = []*kernel{
	{name: "cg", title: "Conjugate Gradient",
		summary: "smallest eigenvalue of a sparse matrix, irregular memory access",
		opType:  "floating point", mopsDoc: "2 niter na (3 + nonzer(nonzer+1) + 25 (5 + nonzer(nonzer+1)) + 3)",
		run: runCG, memory: cgMemory},
	{name: "ep", title: "Embarrassingly Parallel",
		summary: "Gaussian deviates from NPB's generator, no communication",
		opType:  "random numbers generated", mopsDoc: "2^(M+1) random numbers (M = 24, 25, 28 for S, W, A)",
		run: runEP, memory: epMemory},
	{name: "ft", title: "Discrete 3D Fast Fourier Transform",
		summary: "3-D FFT PDE solver, all-to-all data movement",
		opType:  "floating point", mopsDoc: "N (14.8157 + 7.19641 ln N + (5.23518 + 7.21113 ln N) niter), N = nx ny nz",
		run: runFT, memory: ftMemory},
	{name: "is", title: "Integer Sort",
		summary: "ranks random integer keys, random memory access",
		opType:  "keys ranked", mopsDoc: "10 iterations x 2^n keys (n = 16, 20, 23 for S, W, A)",
		run: runIS, memory: isMemory},
	{name: "mg", title: "Multi-Grid",
		summary: "V-cycle multigrid on a 3-D grid, long- and short-distance memory access",
		opType:  "floating point", mopsDoc: "58 nit nx ny nz",
		run: runMG, memory: mgMemory},
}

func init() {
	for _, k := range built {
		workload.Register(Kernel{k})
	}
}

// Info implements workload.Workload.
func (w Kernel) Info() workload.Info {
	return workload.Info{
		Name:     "npb." + w.k.name,
		Summary:  "NAS Parallel Benchmarks " + strings.ToUpper(w.k.name) + " (" + w.k.title + "): " + w.k.summary,
		SeedTool: "NPB 3.3 " + strings.ToUpper(w.k.name),
		Params:   workload.Declared(&npbConfig{}),
		Metrics: []workload.Metric{
			{Name: "mops", Unit: "Mop/s", Label: "Mop/s", HigherIsBetter: true,
				Description: "NPB's Mop/s total: " + w.k.mopsDoc + " / time_s / 1e6 (operation type: " + w.k.opType + ")"},
			{Name: "time_s", Unit: "s", Label: "time s",
				Description: "NPB's \"Time in seconds\": wall time of the timed section, as NPB times it"},
		},
	}
}

// npbConfig is a kernel's parameters, checked.
type npbConfig struct {
	k       *kernel
	class   string
	threads int // 0 in the parameters: GOMAXPROCS
}

// Declare implements workload.Declarer.
func (c *npbConfig) Declare(d *workload.Decl) {
	d.String(&c.class, "class", "S", "NPB problem class: S, W or A (official verification values for each)")
	d.Int(&c.threads, "threads", 0, "goroutines sharing the work, as OMP_NUM_THREADS; 0 uses every CPU the run may use (GOMAXPROCS)")
	d.Min(0, "every CPU")
}

// npbConfig keeps these optional abilities (checked by the compiler).
var _ workload.MemoryNeeder = (*npbConfig)(nil)

// Check implements workload.Checker.
func (c *npbConfig) Check() error {
	c.class = strings.ToUpper(strings.TrimSpace(c.class))
	valid := false
	for _, class := range classes {
		valid = valid || class == c.class
	}
	if !valid {
		return fmt.Errorf("parameter class: %q is not built; valid classes: %s (B and larger do not fit a small device)",
			c.class, strings.Join(classes, ", "))
	}
	if c.threads == 0 {
		c.threads = runtime.GOMAXPROCS(0)
	}
	return nil
}

// Configure implements workload.Workload.
func (w Kernel) Configure(p workload.Params) (workload.Config, error) {
	return workload.Parse(p, &npbConfig{k: w.k})
}

// Run implements workload.Config: one run of the kernel in the class; a
// result that does not verify is an error, not a number.
func (c *npbConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	e.Note("class", c.class)
	e.Note("threads", strconv.Itoa(c.threads))
	e.Note("gomaxprocs", strconv.Itoa(runtime.GOMAXPROCS(0)))
	r, err := c.k.run(ctx, c.class, c.threads)
	if err != nil {
		return fmt.Errorf("npb.%s class %s: %w", c.k.name, c.class, err)
	}
	e.Note("size", r.size)
	e.Note("verification", "SUCCESSFUL: "+r.verify)
	e.Sample("mops", r.mops)
	e.Sample("time_s", r.seconds)
	return nil
}

// MemoryBytes implements workload.MemoryNeeder.
func (c *npbConfig) MemoryBytes() int64 {
	return c.k.memory(c.class)
}

// checkOfficial compares a result with NPB's official value: it returns
// the relative error |got - want| / |want|, and the verification failure
// naming what when that error is above epsilon (or NaN).
func checkOfficial(what string, got, want, epsilon float64) (float64, error) {
	e := math.Abs(got-want) / math.Abs(want)
	if !(e <= epsilon) {
		return e, fmt.Errorf("VERIFICATION FAILED: %s is %.13e, NPB's official value is %.13e (relative error %.3e > %.0e): the computation went wrong on this machine",
			what, got, want, e, epsilon)
	}
	return e, nil
}
