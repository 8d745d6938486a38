package rt

import (
	"sync/atomic"

	"golang.org/x/sys/unix"

	"github.com/boxtax/boxtax/internal/workload/rt/sched"
)

// record is the per-slice measurements, in ns, allocated before measuring.
type record struct {
	oh1, work, oh2, sleep, latency []float64
	capture, write                 []float64 // rt.periodic-io only
}

// newRecord allocates n slices' records: the wake-up latency only for work
// none, else every part (and the frame's for io).
func newRecord(n int, io, latencyOnly bool) record {
	if latencyOnly {
		return record{latency: make([]float64, n)}
	}
	r := record{
		oh1: make([]float64, n), work: make([]float64, n), oh2: make([]float64, n),
		sleep: make([]float64, n), latency: make([]float64, n),
	}
	if io {
		r.capture, r.write = make([]float64, n), make([]float64, n)
	}
	return r
}

// touch writes every element so that no page is first touched while
// measuring (fresh allocations are untouched zero pages).
func (r *record) touch() {
	for _, s := range [][]float64{r.oh1, r.work, r.oh2, r.sleep, r.latency, r.capture, r.write} {
		for i := range s {
			s[i] = -1
		}
	}
}

// task is one time-triggered task: its parameters, its records and the
// state its measuring loop keeps. Everything the loop touches is allocated
// before it starts.
type task struct {
	periodNs  int64
	n         int    // slices to record; lowered when stopped early
	timed     bool   // work until occupyNs has passed, else compute terms
	none      bool   // no work: wake, read the clock, sleep (wakeLoop)
	terms     int    // Leibniz terms a slice (calibrated mode)
	occupyNs  int64  // the work's share of a period (timed mode)
	rec       record //
	frames    *frameSink
	stop      atomic.Bool // set from another goroutine to end the loop early
	startNs   int64       // the first slice's intended start
	overruns  int         // slices whose work ended after their slot
	skipped   int         // whole slots skipped after a long overrun
	lastEndNs int64       // point 4 of the last slice
	errno     unix.Errno  // a system call that failed in the loop
	sink      float64     // the work's results, kept so the work is not optimized away
}

// loop runs the slices. It calls only go:nosplit functions and raw system
// calls and allocates nothing (see package sched), so the Go runtime cannot
// step in while it measures. Each slice:
//
//	sleep until its intended start (absolute time)      -> point 1: woke
//	overhead before the work (stop check, bookkeeping)  -> point 2
//	[capture a frame -> write it to disk]                  (rt.periodic-io)
//	the work: pi by the Leibniz series                   -> point 3
//	overhead after the work (recording, next deadline)   -> point 4
//
// The next slice's start is this one's plus the period, on a fixed grid
// from the first; a slice whose work ends after its slot is an overrun, and
// after an overrun longer than a whole slot the missed slots are skipped
// (counted) so that the task does not run late slices back to back forever.
//
//go:nosplit
func (t *task) loop() {
	period := t.periodNs
	next := sched.Now() + period
	t.startNs = next
	var p4 int64
	for i := 0; i < t.n; i++ {
		if e := sched.SleepUntil(next); e != 0 {
			t.errno, t.n = e, i
			return
		}
		p1 := sched.Now()
		if i > 0 {
			t.rec.sleep[i-1] = float64(p1 - p4)
		}
		t.rec.latency[i] = float64(p1 - next)
		if t.stop.Load() {
			t.n = i
			return
		}
		p2 := sched.Now()
		workStart := p2
		if t.frames != nil {
			captured := t.frames.capture(i)
			written, e := t.frames.write()
			if e != 0 {
				t.errno, t.n = e, i
				return
			}
			t.rec.capture[i] = float64(captured - p2)
			t.rec.write[i] = float64(written - captured)
			workStart = written
		}
		if t.timed {
			for sched.Now()-p2 < t.occupyNs {
				t.sink += sched.Leibniz(64)
			}
		} else {
			t.sink += sched.Leibniz(t.terms)
		}
		p3 := sched.Now()
		t.rec.oh1[i] = float64(p2 - p1)
		t.rec.work[i] = float64(p3 - workStart)
		deadline := next + period
		next = deadline
		p4 = sched.Now()
		t.rec.oh2[i] = float64(p4 - p3)
		if p4 > deadline {
			t.overruns++
			if late := p4 - deadline; late >= period {
				k := late / period
				next += k * period
				t.skipped += int(k)
			}
		}
	}
	// The last slice's sleep ends when the next one would have started.
	sched.SleepUntil(next)
	if t.n > 0 {
		t.rec.sleep[t.n-1] = float64(sched.Now() - p4)
	}
	t.lastEndNs = p4
}
