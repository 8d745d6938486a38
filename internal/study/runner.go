package study

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
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
	Store      *store.Store
	Envs       map[string]env.Environment // by name; every env the runs name
	Progress   Progress
	RunTimeout time.Duration // a run still going after this is stopped and failed; 0: 30 min
	// Labels are added to every container's labels, e.g. which controller started it.
	Labels map[string]string
	// Settle, when set, is called before each run to let the host calm down;
	// what it returns is recorded with the run's settings.
	Settle func(ctx context.Context) map[string]string
}

// Execute does every pending run of the study in planned order. A run that
// fails is recorded with its reason and the study goes on. When ctx ends
// (Ctrl-C), the run in flight is stopped and left pending, the study is marked
// interrupted, and ctx's error is returned; finished runs stay in the store.
func (r *Runner) Execute(ctx context.Context, st store.Study, runs []store.Run) error {
	var pending []store.Run
	for _, run := range runs {
		if run.Status == store.RunPending {
			pending = append(pending, run)
		}
	}
	r.Progress.Begin(len(pending), len(runs)-len(pending))
	defer r.Progress.End()
	for _, run := range pending {
		if ctx.Err() != nil {
			break
		}
		r.Progress.RunStarted(run)
		done := r.one(ctx, run)
		if ctx.Err() != nil {
			break // the run in flight was cut short: leave it pending
		}
		// The run's result is committed even if the context ends now.
		if err := r.Store.FinishRun(context.WithoutCancel(ctx), &done.Run, done.samples()); err != nil {
			return err
		}
		r.Progress.RunEnded(done.Run)
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

// executedRun is a run together with what the worker reported.
type executedRun struct {
	store.Run
	reported []workload.Message
	units    map[string]string
}

func (e *executedRun) samples() []store.Sample {
	var out []store.Sample
	for _, m := range e.reported {
		if m.Kind == workload.KindSample {
			out = append(out, store.Sample{RunID: e.ID, Metric: m.Metric, Value: m.Value, Unit: e.units[m.Metric]})
		}
	}
	return out
}

// one runs a single repetition and returns it with its status, reason,
// settings, notes and what the worker reported.
func (r *Runner) one(ctx context.Context, planned store.Run) *executedRun {
	run := &executedRun{Run: planned, units: map[string]string{}}
	run.Started = time.Now()
	run.Notes = map[string]string{}
	fail := func(format string, a ...any) {
		run.Status = store.RunFailed
		run.Reason = fmt.Sprintf(format, a...)
	}
	wl, err := workload.Lookup(run.Workload)
	if err != nil {
		fail("%v", err)
		return run
	}
	for _, m := range wl.Info().Metrics {
		run.units[m.Name] = m.Unit
	}
	e, ok := r.Envs[run.Env]
	if !ok {
		fail("environment %s is not prepared", run.Env)
		return run
	}
	params, err := json.Marshal(run.Params)
	if err != nil {
		fail("encoding parameters: %v", err)
		return run
	}
	spec := env.Spec{
		Args: []string{"worker", "--workload", run.Workload, "--params", string(params)},
		Labels: map[string]string{
			"io.boxtax.study": fmt.Sprint(run.StudyID),
			"io.boxtax.run":   fmt.Sprint(run.ID),
		},
	}
	for k, v := range r.Labels {
		spec.Labels[k] = v
	}
	timeout := r.RunTimeout
	if timeout == 0 {
		timeout = 30 * time.Minute
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	var settled map[string]string
	if r.Settle != nil {
		settled = r.Settle(runCtx)
	}
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	var decodeErr error
	wg.Add(1)
	go func() {
		defer wg.Done()
		decodeErr = workload.Decode(pr, func(m workload.Message) { run.reported = append(run.reported, m) })
		_, _ = io.Copy(io.Discard, pr) // never block the worker
	}()
	stderr := &tail{max: 4096}
	settings, runErr := env.Run(runCtx, e, spec, pw, stderr)
	pw.Close()
	wg.Wait()
	run.Ended = time.Now()
	run.Settings = settings
	if run.Settings == nil {
		run.Settings = env.Settings{}
	}
	for k, v := range settled {
		run.Settings[k] = v
	}

	done, errs := false, []string{}
	for _, m := range run.reported {
		switch m.Kind {
		case workload.KindNote:
			run.Notes[m.Key] = m.Text
		case workload.KindError:
			errs = append(errs, m.Text)
		case workload.KindDone:
			done = true
		case workload.KindSample:
			if _, known := run.units[m.Metric]; !known {
				errs = append(errs, fmt.Sprintf("worker reported undeclared metric %q", m.Metric))
			} else if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
				errs = append(errs, fmt.Sprintf("metric %s is not finite", m.Metric))
			}
		case "text":
			run.Notes["stdout"] = m.Text
		}
	}
	switch {
	case ctx.Err() != nil:
		// interrupted: the caller leaves the run pending
	case errors.Is(runCtx.Err(), context.DeadlineExceeded):
		fail("run exceeded its time limit of %s and was stopped", timeout)
	case len(errs) > 0:
		fail("%s", strings.Join(errs, "; "))
	case runErr != nil:
		fail("%v%s", runErr, stderr.suffix())
	case decodeErr != nil:
		fail("%v", decodeErr)
	case !done:
		fail("worker ended without reporting done%s", stderr.suffix())
	default:
		run.Status = store.RunOK
	}
	return run
}
