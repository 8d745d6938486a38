package study

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

// procedure carries out the work of one run in its environment and returns
// what the worker(s) said. The default starts one worker; other procedures
// (N concurrent instances, a server in the environment with its client
// outside) compose from it.
type procedure func(ctx context.Context, e env.Environment, spec env.Spec) worker.Output

// procedureFor chooses how a run is carried out.
func (r *Runner) procedureFor(wl workload.Workload, run *executedRun) procedure {
	one := procedure(worker.Run)
	if _, ok := wl.(ControllerMeasured); ok {
		one = timedStartup
	}
	cpusets := make([]string, run.instances)
	if r.Spec != nil {
		sets, err := r.Spec.CPUSets(run.Levels)
		if err != nil {
			return func(context.Context, env.Environment, env.Spec) worker.Output {
				return worker.Output{Err: err}
			}
		}
		cpusets = sets
	}
	if cs, ok := wl.(workload.ClientServer); ok {
		return r.clientServer(cs, run, cpusets)
	}
	if run.instances > 1 {
		return concurrently(cpusets, one)
	}
	return func(ctx context.Context, e env.Environment, spec env.Spec) worker.Output {
		spec.CPUSet = cpusets[0]
		return one(ctx, e, spec)
	}
}

// instancesOf reads the instances level of a cell; 1 when absent.
func instancesOf(levels map[string]string) int {
	n, err := strconv.Atoi(levels[InstancesFactor])
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// concurrently runs a copy of a procedure per CPU set at once (an empty
// set: not pinned) and merges what they said as worker.Instances does.
func concurrently(cpusets []string, one procedure) procedure {
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
