package study

import (
	"context"
	"fmt"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/store"
)

// Progress hears about the runs of a study as they go.
type Progress interface {
	// Begin is called once with the number of runs to do now and done before (on resume).
	Begin(total, alreadyDone int)
	// RunStarted is called before each run.
	RunStarted(r store.Run)
	// RunEnded is called after each run, with its final status.
	RunEnded(r store.Run)
	// End is called once when the study stops, finished or not.
	End()
}

// Runner executes planned runs and commits each to the store when it ends.
type Runner struct {
	Store    *store.Store
	Spec     *Spec                      // the validated spec the runs were planned from
	Envs     map[string]env.Environment // by name; every env the runs name
	Host     env.Environment            // where background loads run: the native environment
	Progress Progress
	// RunTimeout stops and fails a run still going after it; 0: 30 min.
	RunTimeout time.Duration
	// Labels are added to every container's labels, e.g. which controller started it.
	Labels map[string]string
	// Settle, when set, is called before each run to let the host calm down;
	// what it returns is recorded with the run's settings.
	Settle func(ctx context.Context) map[string]string
	// Monitor, when set, samples the host during every run; its readings are
	// stored as series and summarised as mon.* samples, energy as energy.*.
	Monitor *monitor.Sampler
	// MonitorsAbsent says which monitors cannot run here and why, noted with each run.
	MonitorsAbsent map[string]string
	// Disturb, when set, marks a run the monitors saw on a disturbed host
	// (store.RunDisturbed, with why): its samples are kept and left out of
	// the verdicts. Nil: no run is judged so.
	Disturb *monitor.DisturbLimits
}

// Execute does every pending run of the study in planned order. A run that
// fails is recorded with its reason and the study goes on. When ctx ends
// (Ctrl-C), the run in flight is stopped and left pending, the study is marked
// interrupted, and ctx's error is returned; finished runs stay in the store.
func (r *Runner) Execute(ctx context.Context, st store.Study, runs []store.Run) error {
	return r.stop(ctx, st, r.executePending(ctx, runs, nil))
}

// executePending does the pending runs among runs, in order; it returns
// ctx's error when interrupted and a store error when a run cannot be kept.
// Each run done is marked in runs, so a later call (an adaptive study's next
// round) does not do it again. kept, when set, hears of each run kept.
func (r *Runner) executePending(ctx context.Context, runs []store.Run, kept func(store.Run)) error {
	var pending []int
	for i, run := range runs {
		if run.Status == store.RunPending {
			pending = append(pending, i)
		}
	}
	r.Progress.Begin(len(pending), len(runs)-len(pending))
	defer r.Progress.End()
	for _, i := range pending {
		if ctx.Err() != nil {
			break
		}
		r.Progress.RunStarted(runs[i])
		done := r.one(ctx, runs[i])
		if ctx.Err() != nil {
			break // the run in flight was cut short: leave it pending
		}
		if err := r.envLost(ctx, done.Run); err != nil {
			return err // the run stays pending: it measured nothing
		}
		// The run's result is committed even if the context ends now.
		if err := r.Store.FinishRun(context.WithoutCancel(ctx), &done.Run, done.samples(), done.series()); err != nil {
			return err
		}
		runs[i].Status = done.Status
		r.Progress.RunEnded(done.Run)
		if kept != nil {
			kept(runs[i])
		}
	}
	return ctx.Err()
}

// EnvironmentLostError says that a run failed because its environment
// stopped answering (the Docker daemon died or its socket went away): the
// run is left pending and the study stops, rather than failing every run
// left in that environment; --resume goes on once it is back.
type EnvironmentLostError struct {
	Env string
	Run store.Run
	Err error // why the environment is not available now
}

func (e *EnvironmentLostError) Error() string {
	return fmt.Sprintf("environment %s was lost during run %d (%s): %v", e.Env, e.Run.Seq, e.Run.Reason, e.Err)
}

func (e *EnvironmentLostError) Unwrap() error { return e.Err }

// envLost asks the environment of a failed run whether it still answers;
// nil for a run that did not fail, natively, or when it does.
func (r *Runner) envLost(ctx context.Context, run store.Run) error {
	e, ok := r.Envs[run.Env]
	if run.Status != store.RunFailed || !ok || run.Env == "native" {
		return nil
	}
	checkCtx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	if err := e.Available(checkCtx); err != nil && ctx.Err() == nil {
		return &EnvironmentLostError{Env: run.Env, Run: run, Err: err}
	}
	return nil
}

// stop records how the study ended: finished, or interrupted when ctx ended;
// err (a store error or ctx's) is returned.
func (r *Runner) stop(ctx context.Context, st store.Study, err error) error {
	if err != nil && ctx.Err() == nil {
		return err
	}
	status := store.StudyFinished
	if ctx.Err() != nil {
		status = store.StudyInterrupted
	}
	if err := r.Store.SetStudyStatus(context.WithoutCancel(ctx), st.ID, status); err != nil {
		return err
	}
	return ctx.Err()
}
