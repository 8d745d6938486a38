package study

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/study/rounds"
	cmdwl "github.com/boxtax/boxtax/internal/workload/command"
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

	Envs      []string      // keep only these environments
	Workloads []string      // keep only these workloads
	Reps      Reps          // --reps N, paper or auto
	Budget    rounds.Budget // --budget: decide adaptively within this time; 0: the study's
	Warmup    int           // -1: the study's
	Seed      int64         // 0: the study's, else drawn
	// Explain adds, to every container environment, its variants with one
	// mechanism switched off at a time and all at once (ExplainOptions), so
	// the report says what each costs and which option removes a cost.
	Explain bool

	Settle   time.Duration // longest wait for a quiet host before each run; 0: none
	Monitors monitor.Options
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
		Monitors: monitor.Options{Interval: DefaultMonitorInterval, Power: DefaultPower}}
}

// CommandAdapters are the tools whose output --parse reads.
func CommandAdapters() []string { return cmdwl.AdapterNames() }

// ParseDisturb reads --disturbed: "default" (nil), "off", or some of
// steal=PCT,iowait=PCT,busy=PCT (the rest at their defaults). A limit
// below 0 marks every run that the monitors saw (a test's way to make the
// classification certain).
func ParseDisturb(s string) (*monitor.DisturbLimits, error) {
	switch s {
	case "default":
		return nil, nil
	case "off":
		off := monitor.Off
		return &off, nil
	}
	l := monitor.DefaultDisturbLimits
	for _, part := range strings.Split(s, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		pct, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if err != nil || math.IsNaN(pct) {
			return nil, fmt.Errorf("--disturbed %q: want default, off, or limits in percent of the CPUs' time such as steal=10,iowait=20,busy=50", s)
		}
		switch k {
		case "steal":
			l.StealPct = pct
		case "iowait":
			l.IOWaitPct = pct
		case "busy":
			l.BusyBeforePct = pct
		default:
			return nil, fmt.Errorf("--disturbed: unknown limit %q; valid: steal, iowait, busy (or default, off)", k)
		}
	}
	return &l, nil
}

// DisturbText writes limits as ParseDisturb reads them.
func DisturbText(l *monitor.DisturbLimits) string {
	switch {
	case l == nil:
		return "default"
	case *l == monitor.Off:
		return "off"
	}
	pct := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	return fmt.Sprintf("steal=%s,iowait=%s,busy=%s", pct(l.StealPct), pct(l.IOWaitPct), pct(l.BusyBeforePct))
}

// Budget is rounds.Budget, named here for the cli's --budget: the cli
// reads it, ParseBudget and the bounds below through study, whose import
// it already has (TestCLIImportsFewPackages), not from rounds.
type Budget = rounds.Budget

// ParseBudget reads --budget (see rounds.ParseBudget).
func ParseBudget(s string) (Budget, error) { return rounds.ParseBudget(s) }

// The bounds on --max-reps (see package rounds).
const (
	MinAdaptiveRepetitions = rounds.MinAdaptiveRepetitions
	MaxAdaptiveRepetitions = rounds.MaxAdaptiveRepetitions
)
