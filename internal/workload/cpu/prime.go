package cpu

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
)

// Prime is the cpu.prime workload: sysbench's cpu test. One event checks
// every number from 3 up to (but excluding) max_prime for primality by trial
// division up to its square root; threads run events back to back until the
// duration is over or, when events is set, until that many events are done.
var Prime = workload.Define[primeConfig](workload.Info{
	Name:     "cpu.prime",
	Summary:  "prime counting by trial division, as sysbench cpu",
	SeedTool: "sysbench cpu",
	Metrics: []workload.Metric{
		{Name: "events_per_s", Unit: "events/s", Label: "events/s", HigherIsBetter: true,
			Description: "events completed by all threads divided by the wall time from start to the last thread's end"},
		{Name: "event_time_ms", Unit: "ms", Label: "event ms",
			Description: "mean wall time of one event over all events of all threads (sysbench's latency avg)", Secondary: true},
		{Name: "total_time_s", Unit: "s", Label: "total s",
			Description: "wall time from the start of the threads to the end of the last one (sysbench's total time); the main figure when events is set", Secondary: true},
	},
})

// primeConfig is cpu.prime's parameters, checked.
type primeConfig struct {
	maxPrime int
	duration time.Duration
	events   int // 0: run for duration
	threads  int
}

// Declare implements workload.Declarer.
func (c *primeConfig) Declare(d *workload.Decl) {
	d.Int(&c.maxPrime, "max_prime", 10000, "one event tests the numbers 3 .. max_prime-1 (sysbench --cpu-max-prime)")
	d.Duration(&c.duration, "duration", 3*time.Second, "how long the threads run events (sysbench --time); ignored when events is set")
	d.Positive()
	d.Int(&c.events, "events", 0, "if more than 0, run exactly this many events in all and stop, as sysbench --events (0.4: --max-requests); total_time_s is then sysbench 0.4's execution time")
	d.Min(0, "run for duration")
	d.Int(&c.threads, "threads", 1, "goroutines, each locked to its own OS thread (sysbench --threads)")
	d.Min(1)
}

// maxMaxPrime is the largest max_prime: sysbench holds it in an unsigned
// int, and one event up to it already takes hours.
const maxMaxPrime = math.MaxUint32

// Check implements workload.Checker.
func (c *primeConfig) Check() error {
	switch {
	case c.maxPrime < 3:
		return fmt.Errorf("parameter max_prime: %d is too small; use 3 or more (sysbench's default is 10000)", c.maxPrime)
	case int64(c.maxPrime) > maxMaxPrime:
		return fmt.Errorf("parameter max_prime: %d is too large; use at most %d, as sysbench (its default is 10000)", c.maxPrime, uint64(maxMaxPrime))
	}
	return nil
}

// Run implements workload.Config.
func (c *primeConfig) Run(ctx context.Context, _ workload.Env, e workload.Emitter) error {
	e.Note("threads", strconv.Itoa(c.threads))
	e.Note("gomaxprocs", strconv.Itoa(runtime.GOMAXPROCS(0)))

	want := countPrimes(uint64(c.maxPrime)) // also warms the code up
	type result struct {
		events int64
		busy   time.Duration
		err    error
	}
	results := make([]result, c.threads)
	start := time.Now()
	deadline := start.Add(c.duration)
	var claimed atomic.Int64 // events started, when c.events is set
	more := func(now time.Time) bool {
		if c.events > 0 {
			return claimed.Add(1) <= int64(c.events)
		}
		return now.Before(deadline)
	}
	var wg sync.WaitGroup
	for t := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread()
			defer runtime.UnlockOSThread()
			r := &results[t]
			for ctx.Err() == nil {
				t0 := time.Now()
				if !more(t0) {
					return
				}
				got := countPrimes(uint64(c.maxPrime))
				r.busy += time.Since(t0)
				r.events++
				if got != want {
					r.err = fmt.Errorf("event counted %d primes below %d, earlier %d: the CPU computes inconsistently", got, c.maxPrime, want)
					return
				}
			}
		}()
	}
	wg.Wait()
	total := time.Since(start)
	if err := ctx.Err(); err != nil {
		return err
	}
	var events int64
	var busy time.Duration
	for _, r := range results {
		if r.err != nil {
			return r.err
		}
		events += r.events
		busy += r.busy
	}
	if events == 0 {
		return fmt.Errorf("no event completed in %v; raise duration", c.duration)
	}
	mode := "duration"
	if c.events > 0 {
		mode = "events"
	}
	e.Note("stop_by", mode)
	e.Note("events", strconv.FormatInt(events, 10))
	e.Note("primes_per_event", strconv.FormatUint(want, 10))
	e.Sample("events_per_s", float64(events)/total.Seconds())
	e.Sample("event_time_ms", busy.Seconds()*1e3/float64(events))
	e.Sample("total_time_s", total.Seconds())
	return nil
}

// countPrimes is one sysbench cpu event: it counts the primes in 3 .. max-1
// by trial division with 64-bit integers, exactly as sysbench does (so on
// 32-bit ARM the divisions are library calls there and here alike).
func countPrimes(max uint64) uint64 {
	var n uint64
	for c := uint64(3); c < max; c++ {
		t := math.Sqrt(float64(c))
		l := uint64(2)
		for ; float64(l) <= t; l++ {
			if c%l == 0 {
				break
			}
		}
		if float64(l) > t {
			n++
		}
	}
	return n
}
