package rt

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"runtime/debug"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/rt/sched"
)

// seriesChunk is how many slices go out in one series message.
const seriesChunk = 4096

// threadSetup is what the task's thread reports once it is ready to measure.
type threadSetup struct {
	cpu          int // the CPU it ran on when it started measuring
	isolation    *sched.Isolation
	isolated     string // what became of the process's other threads
	policy       string
	terms        int
	calibratedNs int64
	err          error
	unpin        func() // gives the thread its CPUs back
}

// undo gives the process back what prepareThread changed, on every path:
// the preemption signal, the other threads' CPUs, the thread's own CPUs
// (the thread ends with its goroutine, unless it is the process's main
// thread, which parks for good instead).
func (s *threadSetup) undo() {
	sched.UnblockPreemption()
	if s.isolation != nil {
		s.isolation.Restore()
	}
	if s.unpin != nil {
		s.unpin()
	}
}

// run measures one task and reports it.
func run(ctx context.Context, c *config, env workload.Env, e workload.Emitter) error {
	t := &task{
		periodNs: c.periodNs,
		n:        c.slices() + 1, // slice 0 warms up and is not kept, as in the thesis
		timed:    c.work == WorkTimed,
		none:     c.work == WorkNone,
		occupyNs: int64(float64(c.periodNs) * c.occupancyPct / 100),
	}
	t.rec = newRecord(t.n, c.io, t.none)
	t.rec.touch()
	if c.io {
		fs, err := newFrameSink(env.ScratchDir, *c)
		if err != nil {
			return err
		}
		defer fs.close()
		t.frames = fs
		e.Note("frame_source", "synthetic YUYV "+strconv.Itoa(c.frameWidth)+"x"+strconv.Itoa(c.frameHeight)+", "+strconv.Itoa(c.frameBytes)+" bytes")
		e.Note("camera", cameraNote())
		e.Note("frame_file", fmt.Sprintf("%s on %s, a ring of %d frames, sync %s", fs.path, fsType(env.ScratchDir), ringFrames, c.sync))
	}
	// The task keeps its P while it measures; other goroutines need another.
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	runtime.GC()
	defer debug.SetGCPercent(debug.SetGCPercent(-1)) // no collection while measuring
	if c.lockMemory {
		if err := sched.LockMemory(); err != nil {
			return err
		}
		defer sched.UnlockMemory()
	}

	watchDone := make(chan struct{})
	defer close(watchDone)
	go func() {
		select {
		case <-ctx.Done():
			t.stop.Store(true)
		case <-watchDone:
		}
	}()
	ready := make(chan threadSetup, 1)
	measured := make(chan struct{})
	start := time.Now()
	go func() {
		// Never unlocked: the thread ends with this goroutine, real-time
		// policy and all, instead of returning to the runtime's pool.
		runtime.LockOSThread()
		defer close(measured)
		setup := prepareThread(c, t)
		defer setup.undo()
		ready <- setup
		if setup.err != nil {
			return
		}
		if t.none {
			t.wakeLoop()
		} else {
			t.loop()
		}
	}()
	setup := <-ready
	if setup.err != nil {
		return setup.err
	}
	<-measured
	elapsed := time.Since(start)
	if t.errno != 0 {
		return fmt.Errorf("slice %d: a system call failed: %w", t.n, t.errno)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if t.n < 2 {
		return fmt.Errorf("no slice was measured in %v", elapsed)
	}
	// Drop the warm-up slice.
	t.rec = t.rec.from(1)
	t.n--

	e.Note("policy", setup.policy)
	cpu := "any (not pinned)"
	if c.cpu >= 0 {
		cpu = strconv.Itoa(c.cpu) + " (pinned)"
	}
	e.Note("cpu", fmt.Sprintf("%s; on CPU %d when measuring began", cpu, setup.cpu))
	e.Note("period_ns", strconv.FormatInt(c.periodNs, 10))
	e.Note("work", c.work)
	if !t.timed && !t.none {
		e.Note("work_terms", fmt.Sprintf("%d Leibniz terms a slice, %.0f ns when calibrated (target %d ns)", setup.terms, float64(setup.calibratedNs), t.occupyNs))
	}
	e.Note("lock_memory", strconv.FormatBool(c.lockMemory))
	if setup.isolated != "" {
		e.Note("other_threads", setup.isolated)
	}
	e.Note("clock", "CLOCK_MONOTONIC; sleeps: clock_nanosleep TIMER_ABSTIME on a fixed grid")
	e.Note("warmup_slices", "1")
	e.Note("overruns", strconv.Itoa(t.overruns))

	for _, s := range summarize(t.rec, c.periodNs, t.overruns, t.skipped) {
		e.Sample(s.metric, s.value)
	}
	if se, ok := e.(workload.SeriesEmitter); ok {
		for _, s := range t.rec.series() {
			for i := 0; i < len(s.values); i += seriesChunk {
				se.Series(s.name, "ns", s.values[i:min(i+seriesChunk, len(s.values))])
			}
		}
	} else {
		e.Note("series", "not recorded: the emitter takes no series")
	}
	return nil
}

// prepareThread readies the calling (locked) thread: CPU, policy, priority,
// preemption signal blocked, and the work calibrated at that priority.
func prepareThread(c *config, t *task) threadSetup {
	var s threadSetup
	if c.cpu >= 0 {
		if s.unpin, s.err = sched.Pin(c.cpu); s.err != nil {
			return s
		}
		// The process's other threads wait elsewhere; a process that may
		// run on this CPU only measures with them (and says so).
		iso, err := sched.KeepOthersOff(c.cpu)
		switch {
		case err != nil:
			iso.Restore()
			s.isolated = "not kept off CPU " + strconv.Itoa(c.cpu) + ": " + err.Error()
		default:
			s.isolation = iso
			s.isolated = fmt.Sprintf("kept off CPU %d while measuring (%d threads moved)", c.cpu, iso.Moved)
		}
	}
	if s.err = sched.SetThread(c.policy, c.priority); s.err != nil {
		return s
	}
	pol, prio, err := sched.ThreadPolicy()
	if err != nil {
		s.err = fmt.Errorf("reading the thread's policy back: %w", err)
		return s
	}
	s.policy = pol.String()
	if pol.RealTime() {
		s.policy += " " + strconv.Itoa(prio)
	}
	if s.err = sched.BlockPreemption(); s.err != nil {
		s.err = fmt.Errorf("blocking the runtime's preemption signal: %w", s.err)
		return s
	}
	switch {
	case t.none: // no work to warm up or calibrate
	case t.timed:
		t.sink += sched.Leibniz(1 << 16) // warm the code up
	default:
		terms, perTermNs := calibrate(t.occupyNs, func(n int) int64 { return timeLeibniz(n, &t.sink) })
		s.terms, s.calibratedNs = terms, int64(float64(terms)*perTermNs)
		t.terms = terms
	}
	s.cpu = sched.CurrentCPU()
	return s
}

// calibrationNs is how long calibrate times short passes of the work
// before it sizes the slice's: long enough for a CPU coming out of idle (its
// clock ramping up, on a VM the host's as well) to reach speed, and for a
// burst of interference to end. Calibrated on a slow start once, the work
// came out a quarter short of its target (1.2 of 1.6 ms, seen in CI).
const calibrationNs = 50_000_000

// Passes calibrate times: probeTerms a short pass, at most maxProbes of them
// (a bound for a clock that hardly moves), then fullPasses of the whole
// slice's count.
const (
	probeTerms = 1 << 14
	maxProbes  = 1 << 14
	fullPasses = 3
)

// timeLeibniz computes terms Leibniz terms into sink and returns the ns
// they took (at least 1).
func timeLeibniz(terms int, sink *float64) int64 {
	t0 := sched.Now()
	*sink += sched.Leibniz(terms)
	return max(sched.Now()-t0, 1)
}

// calibrate finds how many Leibniz terms take targetNs when undisturbed.
// timeTerms computes n terms and returns the ns they took. Every pass is
// timed: short ones for calibrationNs, then the whole count a few times.
// Interference (another process, a host stealing the vCPU, a CPU still at
// a low clock) only ever adds time, so a term's cost is the least seen in
// any pass, and the more passes spread over time, the likelier one of them
// was undisturbed. It returns the count and that least cost a term.
func calibrate(targetNs int64, timeTerms func(n int) int64) (terms int, perTermNs float64) {
	perTermNs = math.Inf(1)
	pass := func(n int) {
		perTermNs = math.Min(perTermNs, float64(max(timeTerms(n), 1))/float64(n))
	}
	var spentNs int64
	for i := 0; i < maxProbes && spentNs < calibrationNs; i++ {
		took := max(timeTerms(probeTerms), 1)
		spentNs += took
		perTermNs = math.Min(perTermNs, float64(took)/float64(probeTerms))
	}
	for range fullPasses {
		pass(termsFor(targetNs, perTermNs))
	}
	return termsFor(targetNs, perTermNs), perTermNs
}

// termsFor is how many terms of perTermNs each fit in targetNs (at least 1).
func termsFor(targetNs int64, perTermNs float64) int {
	return max(1, int(float64(targetNs)/perTermNs))
}
