package monitor

import (
	"context"
	"fmt"
	"strconv"
	"syscall"
	"time"
)

// CPUTimes are the host's cumulative CPU times in clock ticks (first line of /proc/stat).
type CPUTimes struct {
	Busy, Total uint64
}

// ReadCPUTimes reads /proc/stat.
func ReadCPUTimes() (CPUTimes, error) {
	cpu, _, _, err := readStat("/proc/stat")
	if err != nil {
		return CPUTimes{}, err
	}
	var t CPUTimes
	for i, v := range cpu {
		t.Total += v
		if i != 3 && i != 4 { // idle, iowait
			t.Busy += v
		}
	}
	return t, nil
}

// BusyFraction is the share of all CPUs' time spent busy between two readings.
func BusyFraction(a, b CPUTimes) float64 {
	if b.Total <= a.Total {
		return 0
	}
	return float64(b.Busy-a.Busy) / float64(b.Total-a.Total)
}

// Settler waits, before each run, until the host is quiet: dirty pages are
// flushed (sync) and the host's CPU utilisation over Window stays below
// Threshold, for at most Max. What it saw is recorded with the run, so a run
// that started on a busy host can be recognised.
type Settler struct {
	Threshold float64       // e.g. 0.10: 10 % of all CPUs
	Window    time.Duration // e.g. 250 ms
	Max       time.Duration // give up waiting after this
	// OnWait, when set, hears after each window the host was still busy
	// how busy it was (a fraction of all CPUs) and how long the wait has
	// lasted, so the wait can be shown as it goes (issue 27).
	OnWait func(busy float64, waited time.Duration)
}

// DefaultSettler is what `boxtax run` uses.
var DefaultSettler = Settler{Threshold: 0.10, Window: 250 * time.Millisecond, Max: 10 * time.Second}

// Settle syncs and waits for a quiet host; it returns what it saw as run settings.
func (s Settler) Settle(ctx context.Context) map[string]string {
	start := time.Now()
	syscall.Sync()
	busy := -1.0
	for {
		a, err := ReadCPUTimes()
		if err != nil {
			return map[string]string{"settle": "host load not readable: " + err.Error()}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(s.Window):
		}
		b, err := ReadCPUTimes()
		if err != nil {
			return map[string]string{"settle": "host load not readable: " + err.Error()}
		}
		busy = BusyFraction(a, b)
		if busy < s.Threshold || time.Since(start) >= s.Max {
			break
		}
		if s.OnWait != nil {
			s.OnWait(busy, time.Since(start))
		}
	}
	out := map[string]string{
		"settle_ms":            strconv.FormatInt(time.Since(start).Milliseconds(), 10),
		"host_busy_pct_before": strconv.FormatFloat(busy*100, 'f', 1, 64),
	}
	if busy >= s.Threshold {
		out["settle"] = fmt.Sprintf("host still %.0f%% busy after %s: another program competes with this run", busy*100, s.Max)
	}
	return out
}
