package monitor

import (
	"context"
	"github.com/boxtax/boxtax/internal/crash"
	"sort"
	"sync"
	"time"
)

// Sampler reads its sources every Interval while a run goes on.
type Sampler struct {
	Interval time.Duration
	Sources  []Source
	Power    PowerSource // nil: no power figures
}

// Trace is what a Sampler saw during one run.
type Trace struct {
	Start, End time.Time
	Times      []time.Time          // when each tick was taken
	Series     map[string][]float64 // reading name -> one value per tick (NaN where missing)
	Units      map[string]string    // reading name -> unit
	Energy     *Energy              // nil without a power source
}

// Energy is the energy a run consumed as the power source saw it.
type Energy struct {
	Source    string  // rapl, hwmon, meter-log or estimate
	Estimated bool    // from a model, not a measurement
	Joules    float64 // integral of power over the run
	AvgWatts  float64
}

// Watch starts sampling; stop ends it and returns the trace.
func (s Sampler) Watch(ctx context.Context) (stop func() Trace) {
	tr := Trace{Start: time.Now(), Series: map[string][]float64{}, Units: map[string]string{}}
	var mu sync.Mutex
	tick := func(now time.Time) {
		var readings []Reading
		for _, src := range s.Sources {
			readings = append(readings, src.Read(now)...)
		}
		if s.Power != nil {
			if w, ok := s.Power.Watts(now, readings); ok {
				readings = append(readings, Reading{"power_W", "W", w})
			}
		}
		mu.Lock()
		defer mu.Unlock()
		tr.record(now, readings)
	}
	tick(tr.Start) // primes counters; rates start at the next tick
	done := make(chan struct{})
	finished := make(chan struct{})
	crash.Go(func() {
		defer close(finished)
		if s.Interval <= 0 {
			<-done
			return
		}
		t := time.NewTicker(s.Interval)
		defer t.Stop()
		for {
			select {
			case now := <-t.C:
				tick(now)
			case <-done:
				return
			case <-ctx.Done():
				return
			}
		}
	})
	return func() Trace {
		close(done)
		<-finished
		end := time.Now()
		tick(end)
		mu.Lock()
		defer mu.Unlock()
		tr.End = end
		if s.Power != nil {
			tr.Energy = s.Power.Energy(tr)
		}
		return tr
	}
}

// record appends one tick, keeping every series the same length.
func (tr *Trace) record(now time.Time, readings []Reading) {
	n := len(tr.Times)
	tr.Times = append(tr.Times, now)
	seen := map[string]bool{}
	for _, r := range readings {
		if _, ok := tr.Series[r.Name]; !ok {
			tr.Series[r.Name] = make([]float64, n, n+16)
			for i := range n {
				tr.Series[r.Name][i] = nan
			}
			tr.Units[r.Name] = r.Unit
		}
		tr.Series[r.Name] = append(tr.Series[r.Name], r.Value)
		seen[r.Name] = true
	}
	for name := range tr.Series {
		if !seen[name] {
			tr.Series[name] = append(tr.Series[name], nan)
		}
	}
}

// Names lists the trace's readings in name order.
func (tr Trace) Names() []string {
	names := make([]string, 0, len(tr.Series))
	for n := range tr.Series {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Mean is the mean of a reading over the run, ignoring ticks without it.
func (tr Trace) Mean(name string) (float64, bool) {
	sum, n := 0.0, 0
	for _, v := range tr.Series[name] {
		if v == v { // not NaN
			sum += v
			n++
		}
	}
	if n == 0 {
		return 0, false
	}
	return sum / float64(n), true
}
