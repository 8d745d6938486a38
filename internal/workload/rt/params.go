package rt

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/rt/sched"
)

// Work modes: how the busy part of a slice is measured out.
const (
	// WorkCalibrated computes a fixed number of Leibniz terms, calibrated at
	// start to take occupancy_pct of the period on an undisturbed CPU, so
	// that interference lengthens the work and shows in its duration.
	WorkCalibrated = "calibrated"
	// WorkTimed computes terms until occupancy_pct of the period has passed
	// since point 2, as the thesis's task does (Appendix A): the work then
	// lasts the same in every environment and interference shows elsewhere.
	WorkTimed = "timed"
	// WorkNone does no work at all: the task wakes, reads the clock and
	// sleeps to the next period, as cyclictest does, so that the two probes
	// can be compared like with like (bench/rt-vs-cyclictest.sh). Only the
	// wake-up latency is recorded; occupancy_pct is not used.
	WorkNone = "none"
)

// Sync modes of rt.periodic-io's frame writes.
const (
	SyncNone      = "none"      // write(2) into the page cache, as a logger does
	SyncFdatasync = "fdatasync" // and fdatasync(2) every frame: on the device before the slice goes on
	SyncFsync     = "fsync"     // and fsync(2) every frame (metadata too)
)

// maxSeriesBytes bounds the per-slice arrays allocated before measuring.
const maxSeriesBytes = 1 << 30

// config is the parameters of rt.periodic and rt.periodic-io, checked.
type config struct {
	frequencyHz  float64
	periodNs     int64
	occupancyPct float64
	policyName   string
	policy       sched.Policy
	priority     int
	cpu          int // -1: not pinned
	duration     time.Duration
	work         string
	lockMemory   bool

	io                      bool
	frame                   string
	frameWidth, frameHeight int
	frameBytes              int // YUYV: 2 bytes a pixel
	sync                    string
}

// slices is how many slices the run records.
func (c config) slices() int {
	return int(c.duration.Nanoseconds() / c.periodNs)
}

// seriesPerSlice is how many values a slice records.
func (c config) seriesPerSlice() int {
	if c.work == WorkNone {
		return 1
	}
	if c.io {
		return 7
	}
	return 5
}

// Declare implements workload.Declarer: rt.periodic-io has the frame and
// sync parameters too, and a lower frequency.
func (c *config) Declare(d *workload.Decl) {
	frequency := 100.0
	if c.io {
		frequency = 10
	}
	d.Float(&c.frequencyHz, "frequency_hz", frequency, "slices per second (the thesis: 100 for the Pi task, 10 for Pi/IO)")
	d.Float(&c.occupancyPct, "occupancy_pct", 80, "share of each slice the work takes on an undisturbed CPU, in percent; the rest is sleep")
	d.String(&c.policyName, "policy", "fifo", "scheduling policy of the task's thread: fifo, rr or other (other needs no privilege)")
	d.Int(&c.priority, "priority", 49, "real-time priority 1-99 for fifo and rr (the thesis: 49, above the load's 48)")
	d.Int(&c.cpu, "cpu", -1, "pin the task's thread to this CPU; -1 leaves placement to the kernel")
	d.Min(-1, "not pinned")
	d.Duration(&c.duration, "duration", 10*time.Second, "how long the task runs (the thesis: 3600s); duration x frequency slices are recorded")
	d.String(&c.work, "work", WorkCalibrated, "calibrated: a fixed number of pi terms taking occupancy_pct when undisturbed; timed: compute until occupancy_pct of the slice has passed, as the thesis; "+
		"none: no work, only wake, read the clock and sleep, as cyclictest (records the wake-up latency only)")
	d.Bool(&c.lockMemory, "lock_memory", true, "lock all memory with mlockall so no page fault delays the task")
	if c.io {
		d.String(&c.frame, "frame", "640x480", "frame size in pixels; frames are YUYV, 2 bytes a pixel (640x480: 614400 bytes)")
		d.String(&c.sync, "sync", SyncNone, "after each frame's write: none (page cache only, as a logger), fdatasync or fsync")
	}
}

// config keeps these optional abilities (checked by the compiler).
var _ workload.Requirer = (*config)(nil)

// Check implements workload.Checker.
func (c *config) Check() error {
	var err error
	if c.policy, err = sched.ParsePolicy(c.policyName); err != nil {
		return fmt.Errorf("parameter policy: %w", err)
	}
	switch {
	case !(c.frequencyHz > 0 && c.frequencyHz <= 10000):
		return fmt.Errorf("parameter frequency_hz: %v must be above 0 and at most 10000", c.frequencyHz)
	case !(c.occupancyPct > 0 && c.occupancyPct < 100):
		return fmt.Errorf("parameter occupancy_pct: %v must be between 0 and 100 (exclusive), e.g. 80", c.occupancyPct)
	case c.work != WorkCalibrated && c.work != WorkTimed && c.work != WorkNone:
		return fmt.Errorf("parameter work: %q must be %s, %s or %s", c.work, WorkCalibrated, WorkTimed, WorkNone)
	case c.work == WorkNone && c.io:
		return fmt.Errorf("parameter work: %s is for rt.periodic only: rt.periodic-io's frame is its work; use %s or %s", WorkNone, WorkCalibrated, WorkTimed)
	}
	if err := sched.CheckPriority(c.policy, c.priority); err != nil {
		return fmt.Errorf("parameter priority: %w", err)
	}
	c.periodNs = int64(1e9/c.frequencyHz + 0.5)
	n := c.slices()
	if n < 1 {
		return fmt.Errorf("parameter duration: %v is shorter than one slice (%v); raise it", c.duration, time.Duration(c.periodNs))
	}
	if bytes := int64(n) * int64(c.seriesPerSlice()) * 8; bytes > maxSeriesBytes {
		return fmt.Errorf("parameter duration: %v at %v Hz is %d slices, %d MiB of per-slice records kept in memory; "+
			"the limit is %d MiB: shorten the run or lower the frequency", c.duration, c.frequencyHz, n, bytes>>20, maxSeriesBytes>>20)
	}
	if c.io {
		return c.checkIO()
	}
	return nil
}

// checkIO checks rt.periodic-io's frame and sync.
func (c *config) checkIO() error {
	frame := c.frame
	w, h, ok := strings.Cut(strings.ToLower(frame), "x")
	var err error
	c.frameWidth, err = strconv.Atoi(strings.TrimSpace(w))
	if err == nil {
		c.frameHeight, err = strconv.Atoi(strings.TrimSpace(h))
	}
	if !ok || err != nil || c.frameWidth < 1 || c.frameHeight < 1 || c.frameWidth*c.frameHeight > 8192*8192 {
		return fmt.Errorf("parameter frame: %q is not a frame size like 640x480", frame)
	}
	c.frameBytes = 2 * c.frameWidth * c.frameHeight
	switch c.sync {
	case SyncNone, SyncFdatasync, SyncFsync:
	default:
		return fmt.Errorf("parameter sync: %q must be %s, %s or %s", c.sync, SyncNone, SyncFdatasync, SyncFsync)
	}
	return nil
}

// Requirements implements workload.Requirer: what a container needs for the task: CAP_SYS_NICE and a
// real-time CPU budget for a real-time policy, CAP_IPC_LOCK for mlockall.
// No ulimits: in the container the worker is root, for whom the kernel checks
// these capabilities instead of RLIMIT_RTPRIO and RLIMIT_MEMLOCK, and asking
// Docker for limits above its own hard limits makes the container fail to
// start (docs/design/002-realtime.md).
func (c *config) Requirements() workload.Requirements {
	policy, lock := c.policy, c.lockMemory
	var req workload.Requirements
	if policy.RealTime() {
		req.AddRealtime()
	}
	if lock {
		req.CapAdd = append(req.CapAdd, "IPC_LOCK")
	}
	return req
}
