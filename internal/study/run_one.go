package study

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/worker"
	"github.com/boxtax/boxtax/internal/workload"
)

// executedRun is a run together with what its worker(s) reported.
type executedRun struct {
	store.Run
	extra       []store.Sample // added by the controller: monitors, energy
	extraSeries []store.Series
	reported    []workload.Message
	metrics     map[string]workload.Metric // the workload's, by name
	instances   int                        // concurrent instances; 1 for a single worker
}

// samples are what the worker(s) reported; with N instances each instance's
// values are kept (instance 1..N) and the run's figure (instance 0) is their
// combination as the metric says (sum of throughputs, mean of times...),
// made only when every instance reported the metric.
func (e *executedRun) samples() []store.Sample {
	var out []store.Sample
	perMetric := map[string][]float64{}
	var order []string
	for _, m := range e.reported {
		if m.Kind != workload.KindSample {
			continue
		}
		out = append(out, store.Sample{RunID: e.ID, Instance: m.Instance, Metric: m.Metric, Value: m.Value, Unit: e.metrics[m.Metric].Unit})
		if _, seen := perMetric[m.Metric]; !seen {
			order = append(order, m.Metric)
		}
		perMetric[m.Metric] = append(perMetric[m.Metric], m.Value)
	}
	if e.instances <= 1 {
		return append(out, e.extra...)
	}
	for _, name := range order {
		if vals := perMetric[name]; len(vals) == e.instances {
			out = append(out, store.Sample{RunID: e.ID, Instance: 0, Metric: name, Value: e.metrics[name].Combine(vals), Unit: e.metrics[name].Unit})
		}
	}
	return append(out, e.extra...)
}

// series joins the chunks of each series in the order they came.
func (e *executedRun) series() []store.Series {
	var out []store.Series
	type key struct {
		instance int
		name     string
	}
	index := map[key]int{}
	for _, m := range e.reported {
		if m.Kind != workload.KindSeries {
			continue
		}
		vals, err := workload.UnpackFloat64s(m.Packed)
		if err != nil {
			continue // reported as a failure by classify
		}
		k := key{m.Instance, m.Series}
		i, ok := index[k]
		if !ok {
			i = len(out)
			index[k] = i
			out = append(out, store.Series{RunID: e.ID, Instance: m.Instance, Name: m.Series, Unit: m.Unit})
		}
		out[i].Values = append(out[i].Values, vals...)
	}
	return append(out, e.extraSeries...)
}

// one runs a single repetition and returns it with its status, reason,
// settings, notes and what the worker reported.
func (r *Runner) one(ctx context.Context, planned store.Run) *executedRun {
	run := &executedRun{Run: planned, metrics: map[string]workload.Metric{}, instances: instancesOf(planned.Levels)}
	run.Started = time.Now()
	run.Notes = map[string]string{}
	run.Settings = map[string]string{}
	fail := func(format string, a ...any) *executedRun {
		run.Status, run.Reason, run.Ended = store.RunFailed, fmt.Sprintf(format, a...), time.Now()
		return run
	}
	wl, err := workload.Lookup(run.Workload)
	if err != nil {
		return fail("%v", err)
	}
	for _, m := range workload.MetricsOf(wl, workload.Params(run.Params)) {
		run.metrics[m.Name] = m
	}
	e, ok := r.Envs[run.Env]
	if !ok {
		return fail("environment %s is not prepared", run.Env)
	}
	spec, err := r.workerSpec(wl, run.Run)
	if err != nil {
		return fail("%v", err)
	}
	// Each run of an image gets its VOLUMEs as the image has them, as a
	// container gets a fresh volume: natively and in LXC the unpacked
	// files are reused, and a run would see what the last one wrote.
	if spec.ImageID != "" && env.RunsOwnFiles(e, spec.Image) {
		if err := env.FreshImageVolumes(spec.ImageID); err != nil {
			return fail("%v", err)
		}
	}
	timeout := r.RunTimeout
	if timeout == 0 {
		timeout = 30 * time.Minute
	}
	runCtx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if r.Settle != nil {
		for k, v := range r.Settle(runCtx) {
			run.Settings[k] = v
		}
	}
	stopBackground, err := r.startBackground(runCtx, run)
	if err != nil {
		return fail("%v", err)
	}
	var stopWatch func() monitor.Trace
	if r.Monitor != nil {
		stopWatch = r.Monitor.Watch(runCtx)
	}
	out := r.procedureFor(wl, run)(runCtx, e, spec)
	var trace monitor.Trace
	if stopWatch != nil {
		trace = stopWatch()
	}
	stopBackground()
	run.Ended = time.Now()
	run.reported = out.Messages
	for k, v := range out.Settings {
		run.Settings[k] = v
	}
	if ctx.Err() != nil {
		return run // interrupted: the caller leaves the run pending
	}
	if errors.Is(runCtx.Err(), context.DeadlineExceeded) {
		return fail("run exceeded its time limit of %s and was stopped", timeout)
	}
	if reason := run.classify(out); reason != "" {
		return fail("%s", reason)
	}
	run.Status = store.RunOK
	if stopWatch != nil {
		run.addTrace(trace, r.MonitorsAbsent, wl.Info())
	}
	if why := r.disturbance().Disturbed(monitor.RunHostOf(trace, run.Settings, usesStorage(wl))); why != "" {
		run.Status, run.Reason = store.RunDisturbed, why
	}
	return run
}

// workerSpec is how the run's worker is started: its arguments, labels, and
// exactly the capabilities and limits the workload asks for.
func (r *Runner) workerSpec(wl workload.Workload, run store.Run) (env.Spec, error) {
	spec, err := workerSpecOf(wl, run.Workload, workload.Params(run.Params))
	if err != nil {
		return env.Spec{}, err
	}
	spec.Labels = map[string]string{
		"io.boxtax.study": fmt.Sprint(run.StudyID),
		"io.boxtax.run":   fmt.Sprint(run.ID),
	}
	for k, v := range r.Labels {
		spec.Labels[k] = v
	}
	return spec, nil
}

// workerSpecOf is how a worker of the workload wl, named name, with these
// parameters is started, labels aside: for a run, and for the check of
// every cell before the first run (CheckEnvs).
func workerSpecOf(wl workload.Workload, name string, params workload.Params) (env.Spec, error) {
	inv, err := worker.New(name, params)
	if err != nil {
		return env.Spec{}, err
	}
	spec := inv.Spec()
	need, err := workload.RequirementsOf(wl, params)
	if err != nil {
		return env.Spec{}, err
	}
	spec.CapAdd, spec.Ulimits = need.CapAdd, need.Ulimits
	spec.CPURealtimeRuntimeUs = need.CPURealtimeRuntimeUs
	spec.HostPrograms, spec.HostFiles, spec.Image, spec.ImageID = need.HostPrograms, need.HostFiles, need.Image, need.ImageID
	return spec, nil
}

// classify reads what the worker said and returns why the run failed, or "".
func (run *executedRun) classify(out worker.Output) string {
	done, errs := map[int]bool{}, []string{}
	for _, m := range run.reported {
		switch m.Kind {
		case workload.KindNote:
			key := m.Key
			if m.Instance > 1 {
				key = fmt.Sprintf("instance%d.%s", m.Instance, m.Key)
			}
			run.Notes[key] = m.Text
		case workload.KindError:
			errs = append(errs, m.Text)
		case workload.KindDone:
			done[m.Instance] = true
		case workload.KindSample:
			if _, known := run.metrics[m.Metric]; !known {
				errs = append(errs, fmt.Sprintf("worker reported undeclared metric %q", m.Metric))
			} else if math.IsNaN(m.Value) || math.IsInf(m.Value, 0) {
				errs = append(errs, fmt.Sprintf("metric %s is not finite", m.Metric))
			}
		case workload.KindSeries:
			if _, err := workload.UnpackFloat64s(m.Packed); err != nil {
				errs = append(errs, fmt.Sprintf("series %s: %v", m.Series, err))
			}
		case workload.KindText:
			run.Notes["stdout"] = m.Text
		}
	}
	switch {
	case len(errs) > 0:
		return strings.Join(errs, "; ")
	case out.Err != nil:
		return out.Err.Error() + out.Stderr
	case out.DecodeErr != nil:
		return out.DecodeErr.Error()
	case len(done) < run.instances:
		return fmt.Sprintf("%d of %d worker(s) ended without reporting done%s", run.instances-len(done), run.instances, out.Stderr)
	}
	return ""
}
