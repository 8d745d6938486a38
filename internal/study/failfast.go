package study

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

// Fail fast (issue 27): a program of the user's ran in every run of an
// environment whose image lacked a file it named, and failed each time
// (4 runs, 46 s, exit 3). Before a new study is stored, each cell whose
// workload runs the user's program (its requirements name host programs
// or an image) runs once in its environment. An environment where one
// fails is stopped there: the study goes on without it with
// --skip-unavailable (recorded as unavailable, as an environment that
// cannot run here), or stops with a *CheckError. The check runs are the
// first warm-up round when the study has one (committed as its runs);
// without warm-up they are not stored.

// CheckError says that a program failed its check run in an environment,
// so the study was not started.
type CheckError struct {
	Env    string // where it failed
	Levels string // the cell's other levels, e.g. "threads=4", "" when none
	Reason string // the run's reason: the program's status and output
	Hint   string // what to do about it
	Others []string
	Native bool // the baseline failed: nothing to compare with
}

func (e *CheckError) Error() string {
	where := e.Env
	if e.Levels != "" {
		where += " with " + e.Levels
	}
	msg := fmt.Sprintf("the command failed in %s before the measured runs: %s\nhint: %s", where, e.Reason, e.Hint)
	switch {
	case e.Native:
		return msg + "\nit fails in the baseline environment, so there is nothing to compare: make it run there first"
	case len(e.Others) > 0:
		return msg + fmt.Sprintf("\nto go on without %s: --skip-unavailable, or --envs %s", e.Env, strings.Join(e.Others, ","))
	}
	return msg
}

// beforeStart says which images of host files the containers run (built
// now or before), then, for a new study, runs the fail-fast checks.
func (p Process) beforeStart(ctx context.Context, o Options, spec *Spec, envs map[string]env.Environment, r *Runner) (checkedRuns, map[string]string, error) {
	images, err := imageLines(ctx, spec, envs)
	if err != nil {
		return nil, nil, err
	}
	if o.Resume {
		p.sayImages(images, "")
		return nil, nil, nil
	}
	for _, note := range spec.planNotes { // what goes into the image, before it is built
		p.logf("%s\n", note)
	}
	passed, dropped, err := p.failFast(ctx, spec, r, o.SkipUnavailable, images)
	if err == nil {
		p.sayImages(images, "") // those of environments with nothing to check
	}
	return passed, dropped, err
}

// checkedRuns are the check runs that passed, by cell key.
type checkedRuns map[string]*executedRun

// failFast runs the check of each cell that runs a program of the user's
// and leaves out (skip) or refuses the environments where one fails. It
// returns the runs that passed and the environments left out, with why.
func (p Process) failFast(ctx context.Context, spec *Spec, r *Runner, skip bool, images []imageLine) (checkedRuns, map[string]string, error) {
	cells, err := spec.Cells()
	if err != nil {
		return nil, nil, err
	}
	byEnv := map[string][]Cell{}
	for _, c := range cells {
		if runsUsersProgram(c) {
			byEnv[c.Env] = append(byEnv[c.Env], c)
		}
	}
	if len(byEnv) == 0 {
		return nil, nil, nil
	}
	// The check runs measure nothing kept (a warm-up is discarded): they
	// do not wait for a quiet host.
	settle := r.Settle
	r.Settle = nil
	defer func() { r.Settle = settle }()
	passed, dropped := checkedRuns{}, map[string]string{}
	names := spec.EnvNames()
	if i := slices.Index(names, spec.Baseline); i > 0 { // the baseline first: without it nothing goes on
		names = append([]string{spec.Baseline}, slices.Delete(slices.Clone(names), i, i+1)...)
	}
	p.logf("checking the command once in each environment before the measured runs\n")
	for _, n := range names {
		if len(byEnv[n]) > 0 {
			p.sayImages(images, n)
		}
		// With many levels, the ok ones are counted, not listed (issue 42, 11).
		many, ok, envStart := len(byEnv[n]) > maxCheckLines, 0, time.Now()
		for _, c := range byEnv[n] {
			start := time.Now()
			levels := otherLevels(spec, c)
			label := termtext.Visible(n)
			if levels != "" {
				label += " (" + levels + ")"
			}
			done := r.one(ctx, store.Run{CellKey: c.Key(), Workload: c.Workload, Env: c.Env, Levels: c.Levels, Params: c.Params, Warmup: true})
			if ctx.Err() != nil {
				return nil, nil, fmt.Errorf("interrupted during the check runs, before the study was stored (nothing is kept): %w", ctx.Err())
			}
			if done.Status == store.RunOK || done.Status == store.RunDisturbed { // a check asks whether the command works
				passed[c.Key()] = done
				if ok++; !many {
					p.logf("  %s: ok (%s)\n", label, time.Since(start).Round(100*time.Millisecond))
				}
				continue
			}
			cerr := &CheckError{Env: n, Levels: levels, Reason: termtext.Visible(done.Reason), Hint: failureHint(c, done.Reason, r.Envs[n]), Native: n == spec.Baseline}
			if many && ok > 0 {
				p.logf("  %s: ok for %s of %s levels\n", termtext.Visible(n), termtext.GroupDigits(int64(ok)), termtext.GroupDigits(int64(len(byEnv[n]))))
			}
			p.logf("  %s: failed\n", label)
			if cerr.Native || !skip {
				cerr.Others = slices.DeleteFunc(slices.Clone(names), func(e string) bool { return e == n })
				return nil, nil, cerr
			}
			dropped[n] = "the command failed in its check run: " + done.Reason
			p.warn("environment %s is left out (--skip-unavailable): the command failed there: %s; hint: %s", n, done.Reason, cerr.Hint)
			break
		}
		if many && ok == len(byEnv[n]) {
			p.logf("  %s: ok for all %s levels (%s)\n", termtext.Visible(n), termtext.GroupDigits(int64(ok)), time.Since(envStart).Round(100*time.Millisecond))
		}
	}
	if len(dropped) > 0 {
		spec.Envs = slices.DeleteFunc(spec.Envs, func(e Named) bool { _, gone := dropped[e.Name]; return gone })
		for k, run := range passed {
			if _, gone := dropped[run.Env]; gone {
				delete(passed, k)
			}
		}
	}
	return passed, dropped, nil
}

// maxCheckLines is the most check runs of one environment listed one by
// one; more are counted in one line.
const maxCheckLines = 10

// otherLevels are the cell's levels but its environment, in the spec's
// factor order, e.g. "threads=4, size=1M": which check run failed.
func otherLevels(spec *Spec, c Cell) string {
	var out []string
	for _, f := range spec.Factors {
		if v, ok := c.Levels[f.Name]; ok && f.Name != "env" {
			out = append(out, termtext.Visible(f.Name+"="+v))
		}
	}
	return strings.Join(out, ", ")
}

// runsUsersProgram tells the cells whose workload runs a program of the
// user's (a host program or one in the user's image): only they can run
// natively and fail in a container for want of a file. Workloads built
// into boxtax are the same binary everywhere.
func runsUsersProgram(c Cell) bool {
	wl, err := workload.Lookup(c.Workload)
	if err != nil {
		return false
	}
	need, err := workload.RequirementsOf(wl, c.Params)
	return err == nil && (len(need.HostPrograms) > 0 || need.Image != "")
}

// failureHint says what to do about cell c's check run that failed in e
// with reason: what its workload says (workload.FailureHinter), else
// where to look.
func failureHint(c Cell, reason string, e env.Environment) string {
	wl, _ := workload.Lookup(c.Workload) // runsUsersProgram found it
	need, _ := workload.RequirementsOf(wl, c.Params)
	own := env.RunsOwnFiles(e, need.Image) // an image or root filesystem of its own
	if h, ok := workload.As[workload.FailureHinter](wl, c.Params); ok {
		if hint := h.FailureHint(reason, own); hint != "" {
			return hint
		}
	}
	if own {
		return "the program runs natively but not here: compare what it needs with what the image holds"
	}
	return "it fails on this host itself: run it by hand to see why; boxtax measures a command that succeeds"
}

// keepChecks commits the check runs as the first warm-up round of the
// stored study (they are that round: every cell once, discarded), so the
// runner does not do them again. Without warm-up there is nothing to keep.
func (r *Runner) keepChecks(ctx context.Context, runs []store.Run, passed checkedRuns) error {
	for i := range runs {
		run := runs[i]
		done, ok := passed[run.CellKey]
		if !ok || !run.Warmup || run.Rep != 0 || run.Status != store.RunPending {
			continue
		}
		done.Run.ID, done.Run.StudyID, done.Run.Seq, done.Run.Rep = run.ID, run.StudyID, run.Seq, run.Rep
		if err := r.Store.FinishRun(context.WithoutCancel(ctx), &done.Run, done.samples(), done.series()); err != nil {
			return err
		}
		runs[i].Status = done.Status
		delete(passed, run.CellKey)
	}
	return nil
}

// joinReasons is a and b in one map (nil when both are empty).
func joinReasons(a, b map[string]string) map[string]string {
	if len(b) == 0 {
		return a
	}
	if a == nil {
		a = map[string]string{}
	}
	for k, v := range b {
		a[k] = v
	}
	return a
}
