package monitor

import (
	"fmt"
	"math"
	"strconv"
)

// A run is disturbed when the host did something during it that the
// comparison of environments must not read as an environment's cost: the
// hypervisor took CPU time (steal), another program waited on I/O
// (iowait, in a workload that does none itself), or another program kept
// the CPU busy right up to the run's start. Such a run is stored with its
// cause and left out of the verdicts, in the manner of benchexec, which
// declares a measurement valid or not by what was seen around it, not by
// its result (design note 006, "Disturbed runs").

// Causes of a disturbed run: the first word of its reason.
const (
	CauseSteal  = "steal"
	CauseIOWait = "iowait"
	CauseBusy   = "busy"
)

// DisturbLimits are the thresholds past which a run is disturbed, in
// percent of all CPUs' time. A limit of +Inf is off.
type DisturbLimits struct {
	// StealPct: the mean steal over the run's ticks.
	StealPct float64
	// IOWaitPct: the mean iowait over the run's ticks, in a run whose
	// workload does no I/O of its own (a disk workload's is its own).
	IOWaitPct float64
	// BusyBeforePct: the host's CPU use the settler saw last before the
	// run, after waiting for quiet (the settings' host_busy_pct_before):
	// only other programs run then.
	BusyBeforePct float64
}

// DefaultDisturbLimits are what `boxtax run` applies; the design note
// gives the measurements behind them. On this project's 2-vCPU VM a quiet
// host shows no steal (the hypervisor reports none or below 1 %), iowait
// below 1 % outside disk workloads (0.5 % at most over 90 s while other
// engineers' tests kept both CPUs busy), and a settle wait ends below 10 %
// busy; a neighbour that takes one of the two CPUs shows as 50 %.
var DefaultDisturbLimits = DisturbLimits{StealPct: 10, IOWaitPct: 20, BusyBeforePct: 50}

// Off is no classification at all: every limit +Inf.
var Off = DisturbLimits{StealPct: math.Inf(1), IOWaitPct: math.Inf(1), BusyBeforePct: math.Inf(1)}

// RunHost is what the monitors saw of the host around one run; NaN where
// it was not seen.
type RunHost struct {
	StealPct, IOWaitPct, BusyBeforePct float64
	// OwnIO says the workload does I/O itself (a disk workload), so its
	// iowait is its own and not a disturbance.
	OwnIO bool
}

// RunHostOf reads the run's trace (the means of cpu_steal_pct and
// cpu_iowait_pct over its ticks) and the settler's settings.
func RunHostOf(tr Trace, settings map[string]string, ownIO bool) RunHost {
	h := RunHost{StealPct: math.NaN(), IOWaitPct: math.NaN(), BusyBeforePct: math.NaN(), OwnIO: ownIO}
	if v, ok := tr.Mean("cpu_steal_pct"); ok {
		h.StealPct = v
	}
	if v, ok := tr.Mean("cpu_iowait_pct"); ok {
		h.IOWaitPct = v
	}
	if v, err := strconv.ParseFloat(settings["host_busy_pct_before"], 64); err == nil && v >= 0 {
		h.BusyBeforePct = v
	}
	return h
}

// Disturbed says why a run on host h is disturbed under the limits l, the
// cause first ("steal: the hypervisor took 14.2% of the CPUs' time during
// the run (limit 10%)"); "" when it is not.
func (l DisturbLimits) Disturbed(h RunHost) string {
	switch {
	case h.StealPct > l.StealPct:
		return fmt.Sprintf("%s: the hypervisor took %.1f%% of the CPUs' time during the run (limit %g%%)", CauseSteal, h.StealPct, l.StealPct)
	case !h.OwnIO && h.IOWaitPct > l.IOWaitPct:
		return fmt.Sprintf("%s: the CPUs waited on another program's I/O %.1f%% of the time during the run (limit %g%%)", CauseIOWait, h.IOWaitPct, l.IOWaitPct)
	case h.BusyBeforePct > l.BusyBeforePct:
		return fmt.Sprintf("%s: another program kept the host %.0f%% busy up to the run's start (limit %g%%)", CauseBusy, h.BusyBeforePct, l.BusyBeforePct)
	}
	return ""
}
