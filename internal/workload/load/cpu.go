package load

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/rt/sched"
)

// CPU is the load.cpu workload: like stress-ng --cpu N --cpu-load L
// --cpu-method pi --sched fifo --sched-prio P, built in.
type CPU struct{}

func init() { workload.Register(CPU{}) }

// Info implements workload.Workload.
func (CPU) Info() workload.Info {
	return workload.Info{
		Name:     "load.cpu",
		Summary:  "background CPU load: workers computing pi for a duty share of each period at SCHED_FIFO 48",
		SeedTool: "stress-ng --cpu 2 --cpu-load 80 --cpu-method pi --sched fifo --sched-prio 48",
		Params: []workload.Param{
			{Name: "workers", Default: 2, Description: "worker threads (stress-ng --cpu)"},
			{Name: "duty_pct", Default: 80.0, Description: "share of each period a worker computes, in percent (stress-ng --cpu-load)"},
			{Name: "period", Default: "100ms", Description: "a worker computes for duty_pct of each period and sleeps the rest"},
			{Name: "policy", Default: "fifo", Description: "scheduling policy of the workers: fifo, rr or other (stress-ng --sched)"},
			{Name: "priority", Default: 48, Description: "real-time priority 1-99 of the workers (stress-ng --sched-prio); keep it below the measured task's"},
			{Name: "duration", Default: "0s", Description: "how long to load the CPUs; 0 runs until stopped, as a background load does"},
		},
		Metrics: []workload.Metric{
			{Name: "busy_pct", Unit: "%", Label: "busy %", Description: "mean share of the wall time the workers computed: the duty they achieved"},
			{Name: "terms_per_s", Unit: "terms/s", Label: "pi terms/s", HigherIsBetter: true, Description: "Leibniz terms all workers computed per second of wall time"},
		},
	}
}

// Requirements implements workload.Requirer: in a container, a real-time
// policy needs CAP_SYS_NICE and a real-time budget.
func (CPU) Requirements(p workload.Params) workload.Requirements {
	c, err := parseCPU(p)
	if err != nil || !c.policy.RealTime() {
		return workload.Requirements{}
	}
	return workload.Requirements{CapAdd: []string{"SYS_NICE"}, CPURealtimeRuntimeUs: 950000}
}

// cpuConfig is load.cpu's parameters, checked.
type cpuConfig struct {
	workers  int
	dutyPct  float64
	period   time.Duration
	policy   sched.Policy
	priority int
	duration time.Duration
}

// Validate checks p, already merged with the defaults, without running.
func (CPU) Validate(p workload.Params) error { _, err := parseCPU(p); return err }

func parseCPU(p workload.Params) (cpuConfig, error) {
	var c cpuConfig
	var err error
	if c.workers, err = p.Int("workers"); err != nil {
		return c, err
	}
	if c.dutyPct, err = p.Float("duty_pct"); err != nil {
		return c, err
	}
	if c.period, err = p.Duration("period"); err != nil {
		return c, err
	}
	policy, err := p.String("policy")
	if err != nil {
		return c, err
	}
	if c.policy, err = sched.ParsePolicy(policy); err != nil {
		return c, fmt.Errorf("parameter policy: %w", err)
	}
	if c.priority, err = p.Int("priority"); err != nil {
		return c, err
	}
	if c.duration, err = p.Duration("duration"); err != nil {
		return c, err
	}
	switch {
	case c.workers < 1 || c.workers > 1024:
		return c, fmt.Errorf("parameter workers: %d must be 1 to 1024", c.workers)
	case !(c.dutyPct > 0 && c.dutyPct <= 100):
		return c, fmt.Errorf("parameter duty_pct: %v must be above 0 and at most 100", c.dutyPct)
	case c.period < 100*time.Microsecond:
		return c, fmt.Errorf("parameter period: %v is too short; use 100us or more (stress-ng's slices are 100 ms)", c.period)
	case c.duration < 0:
		return c, fmt.Errorf("parameter duration: %v must be 0 (until stopped) or positive", c.duration)
	}
	if err := sched.CheckPriority(c.policy, c.priority); err != nil {
		return c, fmt.Errorf("parameter priority: %w", err)
	}
	return c, nil
}

// cpuWorker is one worker's loop state.
type cpuWorker struct {
	periodNs, busyNs int64
	endNs            int64 // 0: until stopped
	stop             *atomic.Bool
	busyTotalNs      int64
	terms            int64
	sink             float64 // the work's results, kept so the work is not optimized away
}

// loop computes for busyNs of each period and sleeps until the next one, on
// a fixed grid. Like the task it loads, it passes no preemption point.
//
//go:nosplit
func (w *cpuWorker) loop() {
	next := sched.Now()
	for !w.stop.Load() && (w.endNs == 0 || next < w.endNs) {
		t0 := sched.Now()
		for sched.Now()-t0 < w.busyNs {
			w.sink += sched.Leibniz(256)
			w.terms += 256
		}
		w.busyTotalNs += sched.Now() - t0
		next += w.periodNs
		sched.SleepUntil(next)
	}
}

// Run implements workload.Workload.
func (CPU) Run(ctx context.Context, p workload.Params, _ workload.Env, e workload.Emitter) error {
	c, err := parseCPU(p)
	if err != nil {
		return err
	}
	if runtime.GOMAXPROCS(0) < c.workers+1 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(c.workers + 1))
	}
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	var stop atomic.Bool
	watchDone := make(chan struct{})
	defer close(watchDone)
	go func() {
		select {
		case <-ctx.Done():
			stop.Store(true)
		case <-watchDone:
		}
	}()
	start := sched.Now()
	var endNs int64
	if c.duration > 0 {
		endNs = start + c.duration.Nanoseconds()
	}
	workers := make([]cpuWorker, c.workers)
	errs := make([]error, c.workers)
	var wg sync.WaitGroup
	for i := range workers {
		w := &workers[i]
		*w = cpuWorker{periodNs: c.period.Nanoseconds(), busyNs: int64(float64(c.period.Nanoseconds()) * c.dutyPct / 100), endNs: endNs, stop: &stop}
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
			if errs[i] = sched.SetThread(c.policy, c.priority); errs[i] != nil {
				stop.Store(true)
				return
			}
			if errs[i] = sched.BlockPreemption(); errs[i] != nil {
				stop.Store(true)
				return
			}
			w.loop()
			sched.UnblockPreemption()
		}()
	}
	wg.Wait()
	wall := float64(sched.Now() - start)
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	var busy, terms float64
	for _, w := range workers {
		busy += float64(w.busyTotalNs)
		terms += float64(w.terms)
	}
	e.Note("workers", strconv.Itoa(c.workers))
	e.Note("policy", fmt.Sprintf("%s %d", c.policy, c.priority))
	e.Note("period", c.period.String())
	e.Sample("busy_pct", 100*busy/wall/float64(c.workers))
	e.Sample("terms_per_s", math.Max(terms, 1)/(wall/1e9))
	if c.duration > 0 && ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}
