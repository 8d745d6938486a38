package rt

import "github.com/boxtax/boxtax/internal/workload/rt/sched"

// wakeLoop is the measuring loop of work none: what cyclictest's measuring
// thread does (rt-tests' cyclictest.c, timerthread, in its default mode:
// clock_nanosleep TIMER_ABSTIME on CLOCK_MONOTONIC), and nothing else.
// Each slice:
//
//	sleep until its intended start (absolute time)
//	read the clock                                    -> point 1: woke
//	record point 1 minus the intended start (the wake-up latency)
//	the next start: this one's plus the period, skipping any slot whose
//	start has already passed (as cyclictest does after an overrun)
//
// One clock read a slice, where loop reads it four times and works between.
// Like loop it calls only go:nosplit functions and a raw system call and
// allocates nothing (TestLoopAllocatesNothing).
//
//go:nosplit
func (t *task) wakeLoop() {
	period := t.periodNs
	next := sched.Now() + period
	t.startNs = next
	for i := 0; i < t.n; i++ {
		if e := sched.SleepUntil(next); e != 0 {
			t.errno, t.n = e, i
			return
		}
		now := sched.Now()
		t.rec.latency[i] = float64(now - next)
		if t.stop.Load() {
			t.n = i
			return
		}
		next += period
		if now > next {
			t.overruns++
			for now > next {
				next += period
				t.skipped++
			}
		}
	}
}
