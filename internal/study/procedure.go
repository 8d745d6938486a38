package study

import (
	"context"
	"errors"
	"fmt"
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
func (r *Runner) procedureFor(_ workload.Workload, run *executedRun) procedure {
	one := procedure(runWorker)
	if run.instances > 1 {
		return concurrently(run.instances, one)
	}
	return one
}

// instancesOf reads the instances level of a cell; 1 when absent.
func instancesOf(levels map[string]string) int {
	n, err := strconv.Atoi(levels[InstancesFactor])
	if err != nil || n < 1 {
		return 1
	}
	return n
}

// concurrently runs n copies of a procedure at once and merges what they
// said, each message tagged with its instance (1..n) and each instance's
// settings prefixed with instanceN.
func concurrently(n int, one procedure) procedure {
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
			wg.Add(1)
			go func() {
				defer wg.Done()
				outs[i] = one(ctx, e, s)
			}()
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
