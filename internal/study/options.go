package study

import (
	"flag"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/monitor"
)

// Options are everything one study run is asked: what to run (a preset, a
// YAML file or a --cmd study), what to change in it, where to store it,
// what to watch and how to treat this machine. They declare their own
// flags (AddFlags, AddStoreFlags) and render them back (Args), as
// worker.Invocation does, so `boxtax run` and `boxtax fleet run` take the
// same options and a fleet forwards them to every device unchanged.
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

// AddFlags declares the flags that shape a study run on fs, with
// NewOptions' defaults: the ones a fleet forwards to every device.
func (o *Options) AddFlags(fs *flag.FlagSet) {
	d := NewOptions()
	fs.Var((*listFlag)(&o.Envs), "envs", "comma-separated environments to run (default: the study's)")
	fs.Var((*listFlag)(&o.Workloads), "workloads", "comma-separated workloads to run (default: the study's)")
	fs.Var(&o.Reps, "reps", "measured repetitions per cell: N, paper (the published study's count) or auto (rounds until --precision; default: the study's)")
	fs.Var((*Percent)(&o.Reps.PrecisionPct), "precision", `with --reps auto or --budget: the margin p of "no difference beyond ±p%": a cell is decided when its overhead's 95% interval excludes 0 or lies within ±p (default 2%)`)
	fs.Var(&o.Budget, "budget", "decide within this much time, e.g. 8m: rounds are added until every cell is decided (a cost shown, or no difference beyond --precision) or the next round would end past it (default: the study's)")
	fs.IntVar(&o.Reps.Max, "max-reps", d.Reps.Max, "with --reps auto or --budget: stop after this many rounds even if cells are undecided")
	fs.BoolVar(&o.Explain, "explain", false, "also run each container environment with its network path, seccomp filter and layered storage switched off, one at a time and all at once, to measure what each costs and which option removes a cost (docs/attribution.md)")
	fs.IntVar(&o.Warmup, "warmup", d.Warmup, "warm-up rounds: each runs every cell once before the measured rounds; stored, never in the statistics (default: the study's)")
	fs.Int64Var(&o.Seed, "seed", 0, "seed for the run order (default: the study's, else random; always recorded)")
	fs.DurationVar(&o.Monitors.Interval, "monitor-interval", d.Monitors.Interval, "sample host load, CPU, memory, temperatures and power this often during runs (0: off)")
	fs.StringVar(&o.Monitors.Power, "power", d.Monitors.Power, "power source: auto (RAPL or hwmon), none, estimate:idle=W,full=W, or meter:FILE (CSV of time,watts)")
	fs.DurationVar(&o.Settle, "settle", d.Settle, "before each run, sync and wait up to this long for the host to be quiet (0: no wait)")
	fs.Var(DisturbFlag{&o.Disturb}, "disturbed", "leave out of the verdicts, and mark, a run during which the host was disturbed: default (steal=10,iowait=20,busy=50: percent of the CPUs' time taken by the hypervisor, lost waiting on another program's I/O, or busy with another program up to the run's start), off, or your own limits")
	fs.Var((*listFlag)(&o.Wire), "wire", "network workloads: where the client stands, comma-separated levels: host, proxy, netns (default: the study's, else host)")
	fs.StringVar(&o.WireRate, "wire-rate", "", "network workloads: shape the netns wire to this rate in each direction, e.g. 100mbit (tc tbf)")
	fs.StringVar(&o.HostLabel, "host-label", "", "name this device in reports, e.g. its inventory hostname pi4-kitchen (default: the hostname)")
	fs.BoolVar(&o.SkipUnavailable, "skip-unavailable", false, "leave out environments that cannot run here (e.g. no Docker on this device) instead of stopping; they are recorded as unavailable")
}

// AddStoreFlags declares --db (defaulting to defaultDB) and --resume.
func (o *Options) AddStoreFlags(fs *flag.FlagSet, defaultDB, dbHelp string) {
	fs.StringVar(&o.DB, "db", defaultDB, "SQLite database file to store the study in ("+dbHelp+")")
	fs.BoolVar(&o.Resume, "resume", false, "finish the remaining runs of the latest unfinished study in --db")
}

// FlagArgs renders the options AddFlags declares, those that differ from
// NewOptions', as flags AddFlags reads back the same.
func (o Options) FlagArgs() []string {
	d := NewOptions()
	var args []string
	add := func(name, v string) { args = append(args, "--"+name, v) }
	if len(o.Envs) > 0 {
		add("envs", strings.Join(o.Envs, ","))
	}
	if len(o.Workloads) > 0 {
		add("workloads", strings.Join(o.Workloads, ","))
	}
	if s := o.Reps.String(); s != "" {
		add("reps", s)
	}
	if o.Reps.PrecisionPct != 0 {
		add("precision", (*Percent)(&o.Reps.PrecisionPct).String())
	}
	if o.Budget != 0 {
		add("budget", o.Budget.String())
	}
	if o.Reps.Max != d.Reps.Max {
		add("max-reps", strconv.Itoa(o.Reps.Max))
	}
	if o.Explain {
		args = append(args, "--explain")
	}
	if o.Warmup != d.Warmup {
		add("warmup", strconv.Itoa(o.Warmup))
	}
	if o.Seed != 0 {
		add("seed", strconv.FormatInt(o.Seed, 10))
	}
	if o.Monitors.Interval != d.Monitors.Interval {
		add("monitor-interval", o.Monitors.Interval.String())
	}
	if o.Monitors.Power != d.Monitors.Power {
		add("power", o.Monitors.Power)
	}
	if o.Settle != d.Settle {
		add("settle", o.Settle.String())
	}
	if s := (DisturbFlag{&o.Disturb}).String(); s != "" {
		add("disturbed", s)
	}
	if len(o.Wire) > 0 {
		add("wire", strings.Join(o.Wire, ","))
	}
	if o.WireRate != "" {
		add("wire-rate", o.WireRate)
	}
	if o.HostLabel != "" {
		add("host-label", o.HostLabel)
	}
	if o.SkipUnavailable {
		args = append(args, "--skip-unavailable")
	}
	return args
}

// Overridden tells whether any option changes the study: what --resume,
// which runs a stored study as planned, refuses.
func (o Options) Overridden() bool {
	return o.Study != "" || len(o.Envs) > 0 || len(o.Workloads) > 0 || o.Reps.set || o.Budget != 0 || o.Explain || o.Warmup != -1 ||
		o.Seed != 0 || len(o.Wire) > 0 || o.WireRate != ""
}

// Check refuses what the options cannot mean together, and negative counts
// and durations given on fs (issue 15 item 10: they were silently taken as
// "the study's default" or "off"); the flags' own defaults, such as
// --warmup's -1, are not checked. Every error is the user's to fix.
func (o Options) Check(fs *flag.FlagSet) error {
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if err := o.checkSource(); err != nil {
		return err
	}
	if o.Resume && o.Overridden() {
		return fmt.Errorf("--resume continues a stored study as planned: give only --db")
	}
	if err := o.Reps.check(given); err != nil {
		return err
	}
	switch {
	case given["db"] && o.DB == "":
		return fmt.Errorf("--db needs a path, e.g. --db boxtax.db")
	case given["monitor-interval"] && o.Monitors.Interval < 0:
		return fmt.Errorf("--monitor-interval must be 0 or more, not %s", o.Monitors.Interval)
	case given["settle"] && o.Settle < 0:
		return fmt.Errorf("--settle must be 0 or more, not %s", o.Settle)
	case given["warmup"] && o.Warmup < 0:
		return fmt.Errorf("--warmup must be 0 or more, not %d", o.Warmup)
	}
	return nil
}

// listFlag is a comma-separated list; each use replaces the last.
type listFlag []string

func (l *listFlag) String() string { return strings.Join(*l, ",") }

func (l *listFlag) Set(s string) error {
	*l = nil
	for _, p := range strings.Split(s, ",") {
		if p = strings.TrimSpace(p); p != "" {
			*l = append(*l, p)
		}
	}
	return nil
}
