package study

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"slices"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/progress"
	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/termtext"
)

// Process is what a study run needs from the program that runs it, beside
// its Options: how environments start a worker, where to say what it does,
// and the checks and facts that belong to other packages.
type Process struct {
	Env      env.Options       // the boxtax binary and its version, as workers run it
	Log      io.Writer         // what the run says as it goes (stderr); nil: nothing
	Terminal bool              // Log is a terminal: progress redraws its line
	Labels   map[string]string // added to every container's labels
	// PaperIDs are the papers with published values; a spec naming another
	// is refused. Nil: not checked.
	PaperIDs []string
	// Check refuses a spec before anything is stored (a gate rule that
	// names what it lacks); nil: nothing more to check.
	Check func(*Spec) error
	// Facts are the host facts a new study records, given its opened
	// environments and those left out as unavailable; nil: this host's
	// (hostinfo.Collect) with those of the engines the study's environments
	// use, opened or left out, as each engine tells them (env.EngineFacts).
	// Device and Unavailable are set from the options afterwards.
	Facts func(ctx context.Context, spec *Spec, envs map[string]env.Environment, unavailable map[string]string) hostinfo.Host
}

// Run does a study from start to end as o asks: it reads the spec (or
// resumes the latest unfinished study of o.DB), leaves out the
// environments that cannot run here when asked, refuses what cannot run
// before the database is made, opens and prepares the environments, stores
// the plan with the host facts, does every run (adding rounds while an
// adaptive target is not reached) and closes what it opened. It returns
// the stored study as read back at the end, without its store; on an
// error after the study was stored, the study as far as it got. A
// *RefusedError says nothing ran and the options are at fault.
func Run(ctx context.Context, o Options, p Process) (*Stored, error) {
	begun := time.Now() // a time budget counts from here
	var spec *Spec
	var unavailable map[string]string
	if !o.Resume {
		var err error
		if spec, err = o.spec(ctx, p.PaperIDs); err != nil {
			return nil, refused(err)
		}
		if o.SkipUnavailable {
			if unavailable, err = p.dropUnavailable(ctx, spec); err != nil {
				return nil, err
			}
		}
		if err := p.check(spec); err != nil {
			return nil, err
		}
	} else if _, err := os.Stat(o.DB); errors.Is(err, fs.ErrNotExist) {
		return nil, refused(fmt.Errorf("nothing to resume: no database at %s: start a study with boxtax run, or pass --db", o.DB))
	}
	fresh := !o.Resume && !exists(o.DB)
	db, err := store.Open(ctx, o.DB)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	var st *Stored
	if fresh {
		// Made for this study: gone again if the study never got stored
		// (a check interrupted or failed), as the message says.
		defer func() {
			if st == nil {
				removeUnusedDB(ctx, db)
			}
		}()
	}
	if o.Resume {
		var release func()
		if st, release, err = Resume(ctx, db); errors.Is(err, store.ErrNotFound) {
			return nil, refused(err)
		} else if err != nil {
			return nil, err
		}
		defer release()
		spec = st.Spec
		if err := p.check(spec); err != nil {
			return nil, err
		}
	}
	envs, err := p.openEnvs(ctx, spec.EnvNames())
	if err != nil {
		return nil, err
	}
	defer func() {
		if err := env.CloseAll(ctx, envs); err != nil {
			p.warn("%v", err)
		}
		env.ReleaseImages() // the study no longer needs them: clean --images may remove them
	}()
	if err := spec.checkEnvs(ctx, envs); err != nil {
		return nil, refused(err)
	}
	sampler, absent, watching, err := o.Monitors.Sampler()
	if err != nil {
		return nil, refused(err)
	}
	runner, err := p.runner(db, spec, envs, o.Settle)
	if err != nil {
		return nil, err
	}
	runner.Monitor, runner.MonitorsAbsent = sampler, absent
	limits := monitor.DefaultDisturbLimits
	if o.Disturb != nil {
		limits = *o.Disturb
	}
	runner.Disturb = &limits
	checked, failed, err := p.beforeStart(ctx, o, spec, envs, runner)
	if err != nil {
		return nil, err
	}
	unavailable = joinReasons(unavailable, failed)
	if o.Resume {
		p.logf("resuming study %d %q from %s\n", st.ID, st.Name, o.DB)
	} else {
		var release func()
		if st, release, err = Start(ctx, db, spec, p.facts(ctx, o, spec, envs, unavailable)); err != nil {
			return nil, err
		}
		defer release()
		p.logf("study %d %q: %d runs (%d cells x %d repetitions + %d warm-up rounds), seed %d, stored in %s\n",
			st.ID, st.Name, len(st.Runs), len(st.Runs)/(spec.Repetitions+*spec.Warmup), spec.Repetitions, *spec.Warmup, spec.Seed, o.DB)
		if line := spec.RepetitionsLine(); line != "" {
			p.logf("%s\n", line)
		}
		if line := spec.StorageNote(st.Host); line != "" {
			p.logf("%s\n", line)
		}
		for _, n := range spec.WorkloadNotes() {
			p.logf("note: %s\n", termtext.Visible(n))
		}
		if err := runner.keepChecks(ctx, st.Runs, checked); err != nil {
			return st, err
		}
	}
	started := time.Now()
	p.logf("%s\n", watching)
	end, err := runner.ExecuteAdaptive(ctx, st.Study, st.Runs, p.stopping(db, st, begun))
	if err != nil {
		return st, err
	}
	for _, line := range end.Lines(time.Duration(spec.Budget)) {
		p.logf("%s\n", line)
	}
	done, err := Open(ctx, db, st.ID)
	if err != nil {
		return st, err
	}
	done.Store = nil // closed when Run returns
	p.logf("study %d finished in %s\n", st.ID, time.Since(started).Round(time.Second))
	return done, nil
}

// checkEnvs checks the spec against its opened environments: the wire
// levels it asks for, and what each environment can give.
func (s *Spec) checkEnvs(ctx context.Context, envs map[string]env.Environment) error {
	if err := s.CheckWire(ctx); err != nil {
		return err
	}
	if err := s.CheckWireEnvs(envs); err != nil {
		return err
	}
	return s.CheckEnvs(ctx, envs)
}

// runner is the Runner of the study: background loads natively, progress
// on the log, and the settler when settle is above zero.
func (p Process) runner(db *store.Store, spec *Spec, envs map[string]env.Environment, settle time.Duration) (*Runner, error) {
	host, err := engines.New("native", p.Env)
	if err != nil {
		return nil, err
	}
	shown := progress.New(p.log(), p.Terminal, 10*time.Second)
	r := &Runner{Store: db, Spec: spec, Envs: envs, Host: host, Progress: shown, Labels: p.Labels}
	if settle > 0 {
		r.Settle = showSettling(settle, shown)
	}
	return r, nil
}

// showSettling is the wait for a quiet host before each run, up to max,
// shown on the progress line as it goes: what it waits for and the load
// it sees.
func showSettling(max time.Duration, shown *progress.Reporter) func(context.Context) map[string]string {
	settler := monitor.DefaultSettler
	settler.Max = max
	settler.OnWait = func(busy float64, waited time.Duration) {
		shown.Waiting(fmt.Sprintf("settling: host %.0f%% busy > %.0f%%, %s of at most %s",
			busy*100, settler.Threshold*100, waited.Round(100*time.Millisecond), max))
	}
	return func(ctx context.Context) map[string]string {
		defer shown.Waiting("")
		return settler.Settle(ctx)
	}
}

// stopping is the adaptive stopping rule of a stored study: it reads the
// stored runs and samples and says how many cells are decided; the
// study's budget, if any, ends at begun + budget.
func (p Process) stopping(db *store.Store, st *Stored, begun time.Time) Stopping {
	var earlier result.Earlier // read once, at the first look
	s := Stopping{Judge: func(ctx context.Context) (result.Decisions, error) {
		if earlier == nil {
			var err error
			if earlier, err = EarlierOf(ctx, db, st.Study); err != nil {
				return result.Decisions{}, fmt.Errorf("reading the earlier studies of this host: %w", err)
			}
		}
		runs, err := db.Runs(ctx, st.ID)
		if err != nil {
			return result.Decisions{}, err
		}
		samples, err := db.Samples(ctx, st.ID)
		if err != nil {
			return result.Decisions{}, err
		}
		lay := st.Spec.Layout()
		lay.Earlier = earlier
		d := result.Decide(lay, runs, samples, false)
		p.logf("after %d rounds: %s\n", result.MeasuredRounds(runs), d.Summary())
		return d, nil
	}}
	s.Focused = func(round, cells, of int) {
		p.logf("round %d: %d of %d cells, the undecided ones within reach and their baselines\n", round, cells, of)
	}
	if st.Spec.Budget > 0 {
		s.Deadline = begun.Add(time.Duration(st.Spec.Budget))
	}
	return s
}

// facts are the host facts a new study records.
func (p Process) facts(ctx context.Context, o Options, spec *Spec, envs map[string]env.Environment, unavailable map[string]string) hostinfo.Host {
	var h hostinfo.Host
	if p.Facts != nil {
		h = p.Facts(ctx, spec, envs, unavailable)
	} else {
		h = hostinfo.Collect(p.Env.Version)
		h.Engines = engines.EngineFacts(ctx, envs, slices.Sorted(maps.Keys(unavailable)), p.Env)
	}
	h.Device, h.Unavailable = o.HostLabel, unavailable
	return h
}

func (p Process) check(spec *Spec) error {
	if p.Check == nil {
		return nil
	}
	return p.Check(spec)
}

func (p Process) log() io.Writer {
	if p.Log == nil {
		return io.Discard
	}
	return p.Log
}

func (p Process) logf(format string, a ...any) { fmt.Fprintf(p.log(), format, a...) }

// warn says on the log what the user should know, made safe for a terminal.
func (p Process) warn(format string, a ...any) {
	fmt.Fprintf(p.log(), "warning: %s\n", termtext.Visible(fmt.Sprintf(format, a...)))
}
