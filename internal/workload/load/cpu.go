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
	"golang.org/x/sys/unix"
)

// CPU is the load.cpu workload: like stress-ng --cpu N --cpu-load L
// --cpu-method pi --sched fifo --sched-prio P, built in.
var CPU = workload.Define[cpuConfig](workload.Info{
	Name:     "load.cpu",
	Summary:  "background CPU load: workers computing pi for a duty share of each period at SCHED_FIFO 48",
	SeedTool: "stress-ng --cpu 2 --cpu-load 80 --cpu-method pi --sched fifo --sched-prio 48",
	Metrics: []workload.Metric{
		{Name: "busy_pct", Unit: "%", Label: "busy %", Description: "the workers' mean CPU time as a share of the wall time: the duty they achieved"},
		{Name: "terms_per_s", Unit: "terms/s", Label: "pi terms/s", HigherIsBetter: true, Description: "Leibniz terms all workers computed per second of wall time"},
	},
})

// Requirements implements workload.Requirer: in a container, a real-time
// policy needs CAP_SYS_NICE and a real-time budget.
func (c *cpuConfig) Requirements() workload.Requirements {
	var r workload.Requirements
	if c.policy.RealTime() {
		r.AddRealtime()
	}
	return r
}

// cpuConfig is load.cpu's parameters, checked.
type cpuConfig struct {
	workers    int
	dutyPct    float64
	period     time.Duration
	policyName string
	policy     sched.Policy
	priority   int
	duration   time.Duration
}

// Declare implements workload.Declarer.
func (c *cpuConfig) Declare(d *workload.Decl) {
	d.Int(&c.workers, "workers", 2, "worker threads (stress-ng --cpu)")
	d.Range(1, 1024)
	d.Float(&c.dutyPct, "duty_pct", 80, "share of each period a worker computes, in percent (stress-ng --cpu-load)")
	d.Duration(&c.period, "period", 100*time.Millisecond, "a worker computes for duty_pct of each period and sleeps the rest")
	d.String(&c.policyName, "policy", "fifo", "scheduling policy of the workers: fifo, rr or other (stress-ng --sched)")
	d.Int(&c.priority, "priority", 48, "real-time priority 1-99 of the workers (stress-ng --sched-prio); keep it below the measured task's")
	d.Duration(&c.duration, "duration", 0, "how long to load the CPUs; 0 runs until stopped, as a background load does")
	d.Min(0, "until stopped")
}

// cpuConfig keeps these optional abilities (checked by the compiler).
var _ workload.Requirer = (*cpuConfig)(nil)

// Check implements workload.Checker.
func (c *cpuConfig) Check() error {
	var err error
	if c.policy, err = sched.ParsePolicy(c.policyName); err != nil {
		return fmt.Errorf("parameter policy: %w", err)
	}
	switch {
	case !(c.dutyPct > 0 && c.dutyPct <= 100):
		return fmt.Errorf("parameter duty_pct: %v must be above 0 and at most 100", c.dutyPct)
	case c.period < 100*time.Microsecond:
		return fmt.Errorf("parameter period: %v is too short; use 100us or more (stress-ng's slices are 100 ms)", c.period)
	}
	if err := sched.CheckPriority(c.policy, c.priority); err != nil {
		return fmt.Errorf("parameter priority: %w", err)
	}
	return nil
}

// cpuWorker is one worker's loop state.
type cpuWorker struct {
	periodNs, busyNs int64
	endNs            int64 // 0: until stopped
	stop             *atomic.Bool
	busyTotalNs      int64 // the thread's CPU time in loop: what it computed (and slept for, a little)
	terms            int64
	sink             float64 // the work's results, kept so the work is not optimized away
}

// loop computes for busyNs of each period and sleeps until the next one, on
// a fixed grid; a period it could not start in time is skipped. Like the
// task it loads, it passes no preemption point.
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
		now := sched.Now()
		next += w.periodNs
		if now > next {
			// Late (preempted, or woken late): skip the periods missed
			// rather than compute through them to catch up, which would
			// load the CPU beyond the duty.
			next += (now - next + w.periodNs - 1) / w.periodNs * w.periodNs
		}
		sched.SleepUntil(next)
	}
}

// threadCPUNs is the calling thread's CPU time. The time a worker spends
// in its compute phase by the clock would count the time another thread
// held its CPU meanwhile, and overstate the duty achieved on a busy host.
func threadCPUNs() int64 {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_THREAD_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return ts.Nano()
}

// Run implements workload.Config.
func (c *cpuConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
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
			cpu0 := threadCPUNs()
			w.loop()
			w.busyTotalNs = threadCPUNs() - cpu0
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
