package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/gate"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/progress"
	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// runOptions are the flags of `boxtax run`.
type runOptions struct {
	Study     string // preset name or YAML file
	SpecYAML  string // the study itself (run --cmd), instead of Study
	DB        string
	Envs      []string
	Workloads []string
	Reps      repsValue // --reps N, paper or auto
	Warmup    int
	Seed      int64
	Resume    bool
	Quiet     bool          // no table at the end
	Settle    time.Duration // longest wait for a quiet host before each run; 0: do not wait
	Monitors  monitorOptions
	Wire      []string // where network clients stand: host, netns, netns:RATE
	WireRate  string   // shape every netns level to this rate, e.g. 100mbit
	// HostLabel names this device in reports (a fleet's inventory hostname);
	// empty: the hostname.
	HostLabel string
	// SkipUnavailable leaves out environments that cannot run here instead
	// of refusing the study (one device of a fleet without Docker).
	SkipUnavailable bool
	MaxOverhead     []gate.Rule // --max-overhead: the overhead gate
}

func runCmd(ctx context.Context, g *Globals, args []string) error {
	o := runOptions{}
	var envs, workloads, wires string
	fs := newFlags(g, "run", "[STUDY] [flags]   (STUDY: a preset name or a YAML file; default quick)")
	fs.StringVar(&o.DB, "db", defaultDB(g), "SQLite database file to store the study in ("+dbDefaultHelp+")")
	fs.StringVar(&envs, "envs", "", "comma-separated environments to run (default: the study's)")
	fs.StringVar(&workloads, "workloads", "", "comma-separated workloads to run (default: the study's)")
	fs.Var(&o.Reps, "reps", "measured repetitions per cell: N, paper (the published study's count) or auto (rounds until --precision; default: the study's)")
	fs.Var(precisionFlag{&o.Reps.PrecisionPct}, "precision", "with --reps auto: the half-width of every primary metric's 95% interval of the overhead to reach, e.g. 2% (default 2%)")
	fs.IntVar(&o.Reps.Max, "max-reps", 30, "with --reps auto: stop after this many rounds even if the precision is not reached")
	fs.IntVar(&o.Warmup, "warmup", -1, "warm-up rounds, discarded (default: the study's)")
	fs.Int64Var(&o.Seed, "seed", 0, "seed for the run order (default: the study's, else random; always recorded)")
	fs.BoolVar(&o.Resume, "resume", false, "finish the remaining runs of the latest unfinished study in --db")
	fs.BoolVar(&o.Quiet, "quiet", false, "do not print the table at the end")
	fs.DurationVar(&o.Monitors.Interval, "monitor-interval", time.Second, "sample host load, CPU, memory, temperatures and power this often during runs (0: off)")
	fs.StringVar(&o.Monitors.Power, "power", "auto", "power source: auto (RAPL or hwmon), none, estimate:idle=W,full=W, or meter:FILE (CSV of time,watts)")
	fs.DurationVar(&o.Settle, "settle", monitor.DefaultSettler.Max, "before each run, sync and wait up to this long for the host to be quiet (0: no wait)")
	fs.StringVar(&wires, "wire", "", "network workloads: where the client stands, comma-separated levels: host, proxy, netns (default: the study's, else host)")
	fs.StringVar(&o.WireRate, "wire-rate", "", "network workloads: shape the netns wire to this rate in each direction, e.g. 100mbit (tc tbf)")
	fs.StringVar(&o.HostLabel, "host-label", "", "name this device in reports, e.g. its inventory hostname pi4-kitchen (default: the hostname)")
	addGateFlag(fs, &o.MaxOverhead)
	fs.BoolVar(&o.SkipUnavailable, "skip-unavailable", false, "leave out environments that cannot run here (e.g. no Docker on this device) instead of stopping; they are recorded as unavailable")
	var cf cmdFlags
	cf.register(fs)
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if cf.used() {
		if len(pos) > 0 || o.Resume {
			return usagef("--cmd measures one command instead of a study: give no study (and no --resume)")
		}
		if o.SpecYAML, err = cf.studyYAML(); err != nil {
			return err
		}
	}
	if o.HostLabel != "" {
		if err := hostinfo.CheckLabel(o.HostLabel); err != nil {
			return usagef("--host-label: %v", err)
		}
	}
	if len(pos) > 1 {
		return usagef("one study at a time, got %s", strings.Join(pos, " "))
	}
	if len(pos) == 1 {
		o.Study = pos[0]
	}
	if o.Resume && (o.Study != "" || envs != "" || workloads != "" || o.Reps.set || o.Warmup != -1 || o.Seed != 0 || wires != "" || o.WireRate != "") {
		return usagef("--resume continues a stored study as planned: give only --db")
	}
	if err := o.Reps.check(fs); err != nil {
		return err
	}
	if err := checkRunCounts(fs, o); err != nil {
		return err
	}
	o.Envs, o.Workloads, o.Wire = splitList(envs), splitList(workloads), splitList(wires)
	return runStudy(ctx, g, o)
}

// runStudy plans (or resumes) a study, runs it and prints its table.
func runStudy(ctx context.Context, g *Globals, o runOptions) error {
	var spec *study.Spec
	if !o.Resume {
		var err error
		if spec, err = newSpec(ctx, o); err != nil {
			return usageError{err}
		}
	}
	var unavailable map[string]string
	if o.SkipUnavailable && !o.Resume {
		var err error
		if unavailable, err = dropUnavailable(ctx, g, spec); err != nil {
			return err
		}
	}
	// Whatever can be refused is refused before the database is made
	// (issue 25 item 23): a gate rule against the spec, a resume of none.
	if !o.Resume {
		if err := checkGateSpec(o.MaxOverhead, spec); err != nil {
			return err
		}
	} else if _, err := os.Stat(o.DB); errors.Is(err, fs.ErrNotExist) {
		return usagef("nothing to resume: no database at %s: start a study with boxtax run, or pass --db", o.DB)
	}
	db, err := store.Open(ctx, o.DB)
	if err != nil {
		return err
	}
	defer db.Close()

	var st *study.Stored
	var release func()
	if o.Resume {
		st, release, err = study.Resume(ctx, db)
		if errors.Is(err, store.ErrNotFound) {
			return usageError{err}
		}
		if err != nil {
			return err
		}
		defer release()
		spec = st.Spec
		if err := checkGateSpec(o.MaxOverhead, spec); err != nil {
			return err
		}
	}
	envs, err := openEnvs(ctx, g, spec.EnvNames())
	if err != nil {
		return err
	}
	defer func() {
		if err := env.CloseAll(ctx, envs); err != nil {
			warn(g, "%v", err)
		}
	}()
	if err := spec.CheckWire(ctx); err != nil {
		return usageError{err}
	}
	if err := spec.CheckWireEnvs(envs); err != nil {
		return usageError{err}
	}
	if err := spec.CheckEnvs(ctx, envs); err != nil {
		return usageError{err}
	}
	sampler, absent, watching, err := o.Monitors.sampler()
	if err != nil {
		return err
	}
	if o.Resume {
		fmt.Fprintf(g.Stderr, "resuming study %d %q from %s\n", st.ID, st.Name, o.DB)
	} else {
		host := studyHost(ctx, g, o, spec, envs, unavailable)
		if st, release, err = study.Start(ctx, db, spec, host); err != nil {
			return err
		}
		defer release()
		fmt.Fprintf(g.Stderr, "study %d %q: %d runs (%d cells x %d repetitions + %d warm-up rounds), seed %d, stored in %s\n",
			st.ID, st.Name, len(st.Runs), len(st.Runs)/(spec.Repetitions+*spec.Warmup), spec.Repetitions, *spec.Warmup, spec.Seed, o.DB)
		if line := repetitionsLine(spec); line != "" {
			fmt.Fprintln(g.Stderr, line)
		}
	}

	started := time.Now()
	host, err := env.New("native", env.Options{BinaryPath: g.Executable, Version: g.Version})
	if err != nil {
		return err
	}
	runner := &study.Runner{Store: db, Spec: spec, Envs: envs, Host: host,
		Progress: progress.New(g.Stderr, g.IsTerminal(g.Stderr), 10*time.Second),
		Labels:   map[string]string{ControllerLabel: controllerID()},
		Monitor:  sampler, MonitorsAbsent: absent}
	fmt.Fprintln(g.Stderr, watching)
	if o.Settle > 0 {
		settler := monitor.DefaultSettler
		settler.Max = o.Settle
		runner.Settle = settler.Settle
	}
	execErr := runner.ExecuteAdaptive(ctx, st.Study, st.Runs, func(ctx context.Context) (bool, error) {
		rep, err := buildReport(ctx, db, st.ID)
		if err != nil {
			return false, err
		}
		reached := rep.PrecisionReached()
		fmt.Fprintf(g.Stderr, "after %d rounds: %s\n", rep.Study.Repetitions.Rounds, rep.PrecisionSummary())
		return reached, nil
	})
	if errors.Is(execErr, context.Canceled) || errors.Is(execErr, context.DeadlineExceeded) {
		return exitError{ExitInterrupted, fmt.Errorf("interrupted: the finished runs of study %d are kept in %s; finish it with: boxtax run --resume --db %s", st.ID, o.DB, o.DB)}
	}
	var lost *study.EnvironmentLostError
	if errors.As(execErr, &lost) {
		return exitError{ExitError, fmt.Errorf("%w\nthe finished runs of study %d are kept in %s, and run %d is left to do; "+
			"once %s answers again, remove what it left and finish the study: boxtax clean && boxtax run --resume --db %s",
			lost, st.ID, o.DB, lost.Run.Seq, lost.Env, o.DB)}
	}
	if isDiskFull(execErr) {
		return exitError{ExitError, fmt.Errorf("disk full: a finished run could not be stored in %s (no space left on the filesystem of %s): %v\n"+
			"every run stored before is kept; free some space, then finish the study: boxtax run --resume --db %s",
			o.DB, filepath.Dir(absPath(o.DB)), execErr, o.DB)}
	}
	if execErr != nil {
		return execErr
	}
	rep, err := buildReport(ctx, db, st.ID)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stderr, "study %d finished in %s\n", st.ID, time.Since(started).Round(time.Second))
	if !o.Quiet {
		if err := report.Write(g.Stdout, "table", rep); err != nil {
			return err
		}
	}
	gateErr := finishGate(g, judgeGate(o.MaxOverhead, rep))
	if rep.Runs.Failed > 0 { // incomplete numbers: exit 3 wins over the gate's 4
		return exitError{ExitRunsFailed, fmt.Errorf("%d of %d runs failed (reasons above and in: boxtax report --db %s --study %d)", rep.Runs.Failed, rep.Runs.Total, o.DB, st.ID)}
	}
	return gateErr
}

// newSpec reads the study to run, applies the command line to it and
// checks it against this boxtax and this host.
func newSpec(ctx context.Context, o runOptions) (*study.Spec, error) {
	var spec *study.Spec
	var err error
	if o.SpecYAML != "" {
		spec, err = study.ParseSpec("--cmd", []byte(o.SpecYAML))
	} else {
		spec, err = study.Load(ctx, o.Study)
	}
	if err != nil {
		return nil, err
	}
	study.Overrides{Envs: o.Envs, Workloads: o.Workloads, Repetitions: o.Reps.N, Warmup: o.Warmup, Seed: o.Seed}.Apply(spec)
	if err := o.Reps.apply(spec); err != nil {
		return nil, err
	}
	if err := spec.SetWire(o.Wire, o.WireRate); err != nil {
		return nil, err
	}
	if err := spec.Validate(env.Names()); err != nil {
		return nil, err
	}
	if err := checkPaperID(spec); err != nil {
		return nil, err
	}
	return spec, spec.CheckHost()
}

// studyHost collects the facts of this host a new study records: the
// container engines' only when the study uses them, and which device of a
// fleet this is.
func studyHost(ctx context.Context, g *Globals, o runOptions, spec *study.Spec, envs map[string]env.Environment, unavailable map[string]string) hostinfo.Host {
	host := collectHost(ctx, g, hasDocker(spec.EnvNames()) || hasDocker(sortedKeys(unavailable)))
	host.Device, host.Unavailable = o.HostLabel, unavailable
	host.Podman, host.PodmanRootless = podmanFacts(ctx, envs, false), podmanFacts(ctx, envs, true)
	if slices.ContainsFunc(spec.EnvNames(), func(n string) bool { return env.BaseName(n) == "lxc" }) {
		host.LXC = hostinfo.CollectLXC(ctx)
	}
	return host
}

// openEnvs makes the named environments, checks that each can run here and
// prepares it (e.g. builds the worker image). An environment that cannot run
// is a usage error that names the ones that can.
func openEnvs(ctx context.Context, g *Globals, names []string) (map[string]env.Environment, error) {
	opts := env.Options{BinaryPath: g.Executable, Version: g.Version}
	out := map[string]env.Environment{}
	var problems, usable []string
	for _, n := range names {
		e, err := env.New(n, opts)
		if err != nil {
			return nil, usageError{err}
		}
		if err := e.Available(ctx); err != nil {
			problems = append(problems, fmt.Sprintf("environment %s is not available: %v", n, err))
			continue
		}
		usable = append(usable, n)
		out[n] = e
	}
	if len(problems) > 0 {
		hint := "no environment of this study can run here"
		if len(usable) > 0 {
			hint = "to run without it: --envs " + strings.Join(usable, ",")
		}
		return nil, usageError{fmt.Errorf("%s\n%s", strings.Join(problems, "\n"), hint)}
	}
	for _, n := range names {
		if err := out[n].Prepare(ctx); err != nil {
			return nil, errors.Join(fmt.Errorf("preparing environment %s: %w", n, err), env.CloseAll(ctx, out))
		}
	}
	return out, nil
}

func hasDocker(envs []string) bool {
	for _, e := range envs {
		if strings.HasPrefix(e, "docker") {
			return true
		}
	}
	return false
}

// collectHost gathers the host facts; docker facts only when asked.
func collectHost(ctx context.Context, g *Globals, withDocker bool) hostinfo.Host {
	h := hostinfo.Collect(g.Version)
	if withDocker {
		h.Docker = dockerFacts(ctx)
	}
	return h
}

// ControllerLabel marks the containers of one boxtax process: host/pid.
const ControllerLabel = "io.boxtax.controller"

func controllerID() string {
	host, _ := os.Hostname()
	return fmt.Sprintf("%s/%d", host, os.Getpid())
}

// checkRunCounts refuses negative counts and durations the user gave
// (issue 15 item 10: they were silently taken as "the study's default" or
// "off"); the flags' own defaults, such as --warmup's -1, are not checked.
func checkRunCounts(fs *flag.FlagSet, o runOptions) error {
	var err error
	fs.Visit(func(f *flag.Flag) {
		if err != nil {
			return
		}
		switch f.Name {
		case "warmup":
			if o.Warmup < 0 {
				err = usagef("--warmup must be 0 or more, not %d", o.Warmup)
			}
		case "settle":
			if o.Settle < 0 {
				err = usagef("--settle must be 0 or more, not %s", o.Settle)
			}
		case "monitor-interval":
			if o.Monitors.Interval < 0 {
				err = usagef("--monitor-interval must be 0 or more, not %s", o.Monitors.Interval)
			}
		case "db":
			if o.DB == "" {
				err = usagef("--db needs a path, e.g. --db boxtax.db")
			}
		}
	})
	return err
}

// isDiskFull tells SQLite's and the file system's "no space left" errors.
func isDiskFull(err error) bool {
	return err != nil && (errors.Is(err, syscall.ENOSPC) || strings.Contains(err.Error(), "database or disk is full") ||
		strings.Contains(err.Error(), "no space left on device"))
}

// absPath is path made absolute, or path when that fails.
func absPath(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return abs
	}
	return path
}
