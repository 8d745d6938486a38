package cli

import (
	"flag"
	"fmt"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/study"
)

// The flags of boxtax run, declared once here: they fill a study.Options,
// which is plain data. fleet run declares the same (addRunFlags) and
// forwards those the user gave (forwardedArgs); whether a flag was given
// is the FlagSet's to say, not the options'.

// addStoreFlags declares --db (defaulting to defaultDB) and --resume.
func addStoreFlags(fs *flag.FlagSet, o *study.Options, defaultDB, dbHelp string) {
	fs.StringVar(&o.DB, "db", defaultDB, "SQLite database file to store the study in ("+dbHelp+")")
	fs.BoolVar(&o.Resume, "resume", false, "finish the remaining runs of the latest unfinished study in --db")
}

// addStudyFlags declares the flags that change what a study runs: what
// --resume, which runs a stored study as planned, refuses.
func addStudyFlags(fs *flag.FlagSet, o *study.Options) {
	fs.Var((*listFlag)(&o.Envs), "envs", "comma-separated environments to run (default: the study's)")
	fs.Var((*listFlag)(&o.Workloads), "workloads", "comma-separated workloads to run (default: the study's)")
	fs.Var((*repsFlag)(&o.Reps), "reps", "measured repetitions per cell: N, paper (the published study's count) or auto (rounds until --precision; default: the study's)")
	fs.Var((*budgetFlag)(&o.Budget), "budget", "decide within this much time, e.g. 8m: rounds are added until every cell is decided (a firm cost beyond --precision, or no difference within it) or the next round would end past it (default: the study's)")
	fs.BoolVar(&o.Explain, "explain", false, "also run each container environment with its network path, seccomp filter and layered storage switched off, one at a time and all at once, to measure what each costs and which option removes a cost (docs/attribution.md)")
	fs.IntVar(&o.Warmup, "warmup", study.NewOptions().Warmup, "warm-up rounds: each runs every cell once before the measured rounds; stored, never in the statistics (default: the study's)")
	fs.Int64Var(&o.Seed, "seed", 0, "seed for the run order (default: the study's, else random; always recorded)")
	fs.Var((*listFlag)(&o.Wire), "wire", "network workloads: where the client stands, comma-separated levels: host, proxy, netns (default: the study's, else host)")
	fs.StringVar(&o.WireRate, "wire-rate", "", "network workloads: shape the netns wire to this rate in each direction, e.g. 100mbit (tc tbf)")
}

// addRunFlags declares the flags that shape a study run, with
// study.NewOptions' defaults: addStudyFlags' and how this machine runs
// it. They are the ones a fleet forwards to every device.
func addRunFlags(fs *flag.FlagSet, o *study.Options) {
	d := study.NewOptions()
	addStudyFlags(fs, o)
	fs.Var((*percentFlag)(&o.Reps.PrecisionPct), "precision", `with --reps auto or --budget: the margin p of "no difference beyond ±p%": a cell is decided when its overhead's firm interval lies wholly beyond ±p (a cost or gain) or wholly within it (no difference) (default 2%)`)
	fs.IntVar(&o.Reps.Max, "max-reps", d.Reps.Max, "with --reps auto or --budget: stop after this many rounds even if cells are undecided")
	fs.DurationVar(&o.Monitors.Interval, "monitor-interval", d.Monitors.Interval, "sample host load, CPU, memory, temperatures and power this often during runs (0: off)")
	fs.StringVar(&o.Monitors.Power, "power", d.Monitors.Power, "power source: auto (RAPL or hwmon), none, estimate:idle=W,full=W, or meter:FILE (CSV of time,watts)")
	fs.DurationVar(&o.Settle, "settle", d.Settle, "before each run, sync and wait up to this long for the host to be quiet (0: no wait)")
	fs.Var(disturbFlag{o}, "disturbed", "leave out of the verdicts, and mark, a run during which the host was disturbed: default (steal=10,iowait=20,busy=50: percent of the CPUs' time taken by the hypervisor, lost waiting on another program's I/O, or busy with another program up to the run's start), off, or your own limits")
	fs.StringVar(&o.HostLabel, "host-label", "", "name this device in reports, e.g. its inventory hostname pi4-kitchen (default: the hostname)")
	fs.BoolVar(&o.SkipUnavailable, "skip-unavailable", false, "leave out environments that cannot run here (e.g. no Docker on this device) instead of stopping; they are recorded as unavailable")
}

// addCommandFlags declares --cmd and the flags that go with it.
func addCommandFlags(fs *flag.FlagSet, c *study.Command) {
	fs.Var((*repeated)(&c.Cmds), "cmd", "measure this command (program and arguments, split as a shell would, no shell) instead of a study: natively and in each environment; several --cmd are compared as the levels of a factor named command")
	fs.Var((*repeated)(&c.Metrics), "metric", "with --cmd: a figure from its output, NAME[:UNIT][:higher|:lower]=REGEX or NAME=json:PATH (repeatable); one named as the adapter's replaces it")
	fs.Var((*repeated)(&c.Files), "file", "with --cmd: a host file or directory the command needs in a container (repeatable)")
	fs.Var((*repeated)(&c.Params), "param", "with --cmd: a factor `NAME=V1,V2`, whose level replaces {NAME} in the commands, --setup and --prepare (repeatable: every combination runs)")
	fs.StringVar(&c.Setup, "setup", "", "with --cmd: a command run before each measured one, not timed (e.g. sysbench fileio prepare)")
	fs.StringVar(&c.Prepare, "prepare", "", "with --cmd: a command run right before each measured one (after --setup), in the same environment, not timed (as hyperfine's --prepare)")
	fs.StringVar(&c.Parse, "parse", "", "with --cmd: read a known tool's output: auto (by the program's name), none, "+strings.Join(study.CommandAdapters(), ", "))
	fs.StringVar(&c.Timeout, "cmd-timeout", "", "with --cmd: longest one run may take (default 10m)")
	fs.StringVar(&c.Image, "image", "", "a local Docker or Podman image: run its own program (Entrypoint and Cmd), or --cmd, in its files in every environment, natively by chroot into them (moved to the engine that lacks it, the same id)")
}

// givenOf are the flags given on fs among those declare declares.
func givenOf(fs *flag.FlagSet, declare func(*flag.FlagSet, *study.Options)) []*flag.Flag {
	known := flag.NewFlagSet("", flag.ContinueOnError)
	declare(known, &study.Options{})
	var given []*flag.Flag
	fs.Visit(func(f *flag.Flag) {
		if known.Lookup(f.Name) != nil {
			given = append(given, f)
		}
	})
	return given
}

// forwardedArgs are the flags of run given on fs (addRunFlags'), written
// as run reads them back: what fleet run hands every device.
func forwardedArgs(fs *flag.FlagSet) []string {
	var args []string
	for _, f := range givenOf(fs, addRunFlags) {
		arg, v := "--"+f.Name, f.Value.String()
		if b, ok := f.Value.(interface{ IsBoolFlag() bool }); !ok || !b.IsBoolFlag() {
			args = append(args, arg, v)
		} else if v == "true" {
			args = append(args, arg)
		} else {
			args = append(args, arg+"="+v)
		}
	}
	return args
}

// checkRunOptions refuses what the options cannot mean together
// (study.Options.Check), study flags with --resume, and negative counts
// and durations given on fs (issue 15 item 10: they were silently taken as
// "the study's default" or "off"); the flags' own defaults, such as
// --warmup's -1, are not checked. Every error is the user's to fix.
func checkRunOptions(o study.Options, fs *flag.FlagSet) error {
	if err := o.Check(); err != nil {
		return err
	}
	if o.Resume && (o.Study != "" || len(givenOf(fs, addStudyFlags)) > 0) {
		return fmt.Errorf("--resume continues a stored study as planned: give only --db")
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	adaptive := o.Reps.Auto || given["budget"]
	switch {
	case given["budget"] && (o.Reps.N > 0 || o.Reps.Paper):
		return fmt.Errorf("--budget adds rounds until every cell is decided: give --reps auto or no --reps, not --reps %s", fs.Lookup("reps").Value)
	case !adaptive && (given["precision"] || given["max-reps"]):
		return fmt.Errorf("--precision and --max-reps go with --reps auto or --budget")
	case adaptive && (o.Reps.Max < study.MinAdaptiveRepetitions || o.Reps.Max > study.MaxAdaptiveRepetitions):
		return fmt.Errorf("--max-reps must be %d to %d, not %d", study.MinAdaptiveRepetitions, study.MaxAdaptiveRepetitions, o.Reps.Max)
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

// repeated is a flag given once per value.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, " ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

// repsFlag is --reps: a count, paper or auto.
type repsFlag study.Reps

// String renders the rule as Set reads it; "" when none was given.
func (r *repsFlag) String() string {
	switch {
	case r.Paper:
		return "paper"
	case r.Auto:
		return "auto"
	case r.N > 0:
		return strconv.Itoa(r.N)
	}
	return ""
}

func (r *repsFlag) Set(s string) error {
	r.N, r.Paper, r.Auto = 0, false, false
	switch s = strings.TrimSpace(s); s {
	case "paper":
		r.Paper = true
	case "auto":
		r.Auto = true
	default:
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > study.MaxAdaptiveRepetitions {
			return fmt.Errorf("want a whole number from 1 to %d, paper or auto, not %q", study.MaxAdaptiveRepetitions, s)
		}
		r.N = n
	}
	return nil
}

// budgetFlag is --budget: a duration study.ParseBudget takes.
type budgetFlag study.Budget

func (b *budgetFlag) String() string { return study.Budget(*b).String() }

func (b *budgetFlag) Set(s string) error {
	d, err := study.ParseBudget(s)
	if err != nil {
		return err
	}
	*b = budgetFlag(d)
	return nil
}

// percentFlag is a percentage above 0 and at most 100, written with or
// without the % sign, like 2%: --precision, of run and of report.
type percentFlag float64

// String is the percentage with its % sign; "" when unset.
func (p *percentFlag) String() string {
	if *p == 0 {
		return ""
	}
	return strconv.FormatFloat(float64(*p), 'g', -1, 64) + "%"
}

func (p *percentFlag) Set(s string) error {
	v, err := strconv.ParseFloat(strings.TrimSuffix(strings.TrimSpace(s), "%"), 64)
	if err != nil || !(v > 0 && v <= 100) {
		return fmt.Errorf("want a percentage above 0 and at most 100, like 2%%, not %q", s)
	}
	*p = percentFlag(v)
	return nil
}

// disturbFlag is --disturbed (study.ParseDisturb).
type disturbFlag struct{ o *study.Options }

// String is the flag's value as Set takes it.
func (f disturbFlag) String() string {
	if f.o == nil {
		return "default"
	}
	return study.DisturbText(f.o.Disturb)
}

func (f disturbFlag) Set(s string) (err error) {
	f.o.Disturb, err = study.ParseDisturb(s)
	return err
}
