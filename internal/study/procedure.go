package study

import (
	"context"
	"errors"
	"fmt"
	"github.com/boxtax/boxtax/internal/crash"
	"maps"
	"strconv"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// InstancesFactor is the reserved factor name for running N copies of a
// workload at once, each its own process natively or its own container.
const InstancesFactor = "instances"

// procedure carries out the work of one run in its environment and returns
// what the worker(s) said. The default starts one worker; other procedures
// (N concurrent instances, a server in the environment with its client
// outside) compose from it.
type procedure func(ctx context.Context, e env.Environment, spec env.Spec) workerOutput

// procedureFor chooses how a run is carried out.
func (r *Runner) procedureFor(wl workload.Workload, run *executedRun) procedure {
	one := procedure(runWorker)
	if _, ok := wl.(ControllerMeasured); ok {
		one = timedStartup
	}
	cpusets := make([]string, run.instances)
	if r.Spec != nil {
		sets, err := r.Spec.CPUSets(run.Levels)
		if err != nil {
			return func(context.Context, env.Environment, env.Spec) workerOutput {
				return workerOutput{err: err}
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
	return func(ctx context.Context, e env.Environment, spec env.Spec) workerOutput {
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
// set: not pinned) and merges what they said, each message tagged with its
// instance (1..n) and each instance's settings prefixed with instanceN.
func concurrently(cpusets []string, one procedure) procedure {
	n := len(cpusets)
	return func(ctx context.Context, e env.Environment, spec env.Spec) workerOutput {
		outs := make([]workerOutput, n)
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
		merged := workerOutput{settings: env.Settings{"instances": strconv.Itoa(n)}}
		var errs, decodeErrs []error
		var stderr []string
		for i, o := range outs {
			for _, m := range o.messages {
				m.Instance = i + 1
				merged.messages = append(merged.messages, m)
			}
			for k, v := range o.settings {
				merged.settings[fmt.Sprintf("instance%d.%s", i+1, k)] = v
			}
			if o.err != nil {
				errs = append(errs, fmt.Errorf("instance %d: %w", i+1, o.err))
			}
			if o.decodeErr != nil {
				decodeErrs = append(decodeErrs, fmt.Errorf("instance %d: %w", i+1, o.decodeErr))
			}
			if o.stderr != "" {
				stderr = append(stderr, fmt.Sprintf("instance %d%s", i+1, o.stderr))
			}
		}
		merged.err, merged.decodeErr = errors.Join(errs...), errors.Join(decodeErrs...)
		if len(stderr) > 0 {
			merged.stderr = "; " + strings.Join(stderr, "; ")
		}
		return merged
	}
}
