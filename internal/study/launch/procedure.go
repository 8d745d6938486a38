package launch

import (
	"context"
	"maps"
	"strconv"
	"sync"

	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/worker"
	"github.com/boxtax/boxtax/internal/workload"
)

// InstancesFactor is the reserved factor name for running N copies of a
// workload at once, each its own process natively or its own container.
const InstancesFactor = "instances"

// Procedure carries out the work of one run in its environment and returns
// what the worker(s) said. The default starts one worker; other procedures
// (N concurrent instances, a server in the environment with its client
// outside) compose from it.
type Procedure func(ctx context.Context, e env.Environment, spec env.Spec) worker.Output

// Run is what a procedure needs to know of the run it carries out.
type Run struct {
	Workload string
	Params   map[string]any
	Levels   map[string]string // the run's factor levels (the wire's among them)
	CPUSets  []string          // one per instance; "" not pinned
}

// For chooses how a run is carried out. host is the native environment,
// where a network workload's client runs (nil when it is not prepared).
func For(wl workload.Workload, run Run, host env.Environment) Procedure {
	one := Procedure(worker.Run)
	if _, ok := wl.(ControllerMeasured); ok {
		one = timedStartup
	}
	if cs, ok := wl.(workload.ClientServer); ok {
		return clientServer(cs, run, host)
	}
	if len(run.CPUSets) > 1 {
		return Concurrently(run.CPUSets, one)
	}
	return func(ctx context.Context, e env.Environment, spec env.Spec) worker.Output {
		spec.CPUSet = run.CPUSets[0]
		return one(ctx, e, spec)
	}
}

// Failed is a procedure that only reports err.
func Failed(err error) Procedure {
	return func(context.Context, env.Environment, env.Spec) worker.Output {
		return worker.Output{Err: err}
	}
}

// Instances reads the instances level of a cell; 1 when absent.
func Instances(levels map[string]string) int {
	n, err := strconv.Atoi(levels[InstancesFactor])
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// Concurrently runs a copy of a procedure per CPU set at once (an empty
// set: not pinned) and merges what they said as worker.Instances does.
func Concurrently(cpusets []string, one Procedure) Procedure {
	n := len(cpusets)
	return func(ctx context.Context, e env.Environment, spec env.Spec) worker.Output {
		outs := make([]worker.Output, n)
		var wg sync.WaitGroup
		for i := range n {
			s := spec
			s.Labels = maps.Clone(spec.Labels)
			if s.Labels == nil {
				s.Labels = map[string]string{}
			}
			s.Labels["io.boxtax.instance"] = strconv.Itoa(i + 1)
			s.CPUSet = cpusets[i]
			wg.Add(1)
			crash.Go(func() {
				defer wg.Done()
				outs[i] = one(ctx, e, s)
			})
		}
		wg.Wait()
		return worker.Instances(outs)
	}
}
