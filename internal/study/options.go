package study

import (
	"time"

	"github.com/boxtax/boxtax/internal/monitor"
)

// Options are everything one study run is asked: what to run (a preset, a
// YAML file or a --cmd study), what to change in it, where to store it,
// what to watch and how to treat this machine. They are plain data: the
// cli declares the flags that fill them (cli/run_flags.go).
type Options struct {
	Study   string  // preset name or YAML file; "": quick
	Command Command // --cmd: measure one command instead of a study
	DB      string  // the SQLite file
	Resume  bool    // finish the latest unfinished study in DB instead

	Envs      []string // keep only these environments
	Workloads []string // keep only these workloads
	Reps      Reps     // --reps N, paper or auto
	Budget    Budget   // --budget: decide adaptively within this time; 0: the study's
	Warmup    int      // -1: the study's
	Seed      int64    // 0: the study's, else drawn
	// Explain adds, to every container environment, its variants with one
	// mechanism switched off at a time and all at once (ExplainOptions), so
	// the report says what each costs and which option removes a cost.
	Explain bool

	Settle   time.Duration // longest wait for a quiet host before each run; 0: none
	Monitors Monitors
	// Disturb are the limits past which a run counts as disturbed and is
	// left out of the verdicts (monitor.DisturbLimits); nil:
	// monitor.DefaultDisturbLimits.
	Disturb  *monitor.DisturbLimits
	Wire     []string // where network clients stand: host, proxy, netns
	WireRate string   // shape every netns level to this rate, e.g. 100mbit
	// HostLabel names this device in reports (a fleet's inventory
	// hostname); empty: the hostname.
	HostLabel string
	// SkipUnavailable leaves out environments that cannot run here instead
	// of refusing the study (one device of a fleet without Docker).
	SkipUnavailable bool
}

// Option defaults: what a flag left out means.
const (
	DefaultMaxReps         = 30
	DefaultMonitorInterval = time.Second
	DefaultPower           = "auto"
)

// NewOptions are the options of a run given no flag.
func NewOptions() Options {
	return Options{Warmup: -1, Reps: Reps{Max: DefaultMaxReps}, Settle: monitor.DefaultSettler.Max,
		Monitors: Monitors{Interval: DefaultMonitorInterval, Power: DefaultPower}}
}
