package launch

import (
	"context"
	"strconv"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/worker"
	"github.com/boxtax/boxtax/internal/workload"
)

// ControllerMeasured is implemented by workloads whose metrics the controller
// measures around the worker (ctr.startup) instead of the worker itself.
type ControllerMeasured interface {
	ControllerMeasured()
}

// timedStartup starts the worker and times each phase from the create
// request: the worker's first instruction (its hello), its first output at
// the controller, its exit, and the stop and removal afterwards. The timings
// become the run's samples, as if the worker had reported them.
func timedStartup(ctx context.Context, e env.Environment, spec env.Spec) worker.Output {
	p, err := worker.Start(ctx, e, spec)
	if err != nil {
		return worker.Output{Err: err}
	}
	t0 := p.Requested()
	waitErr := p.Wait(ctx)
	exited := time.Now()
	stopErr := p.Stop(ctx)
	stopped := time.Now()
	out := p.Output()
	out.Err = waitErr
	if stopErr != nil && out.Err == nil {
		out.Err = stopErr
	}

	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	setting := func(k string) float64 {
		v, _ := strconv.ParseFloat(out.Settings[k], 64)
		return v
	}
	add := func(metric string, v float64) {
		out.Messages = append(out.Messages, workload.Message{Kind: workload.KindSample, Metric: metric, Value: v})
	}
	for _, m := range out.Messages {
		if m.Kind == workload.KindHello && m.UnixNs > 0 {
			add("activation_ms", ms(time.Unix(0, m.UnixNs).Sub(t0)))
			break
		}
	}
	add("create_ms", setting("create_ms"))
	add("start_ms", setting("start_ms"))
	if first := p.FirstOutput(); !first.IsZero() {
		add("first_output_ms", ms(first.Sub(t0)))
	}
	add("exit_ms", ms(exited.Sub(t0)))
	add("stop_remove_ms", ms(stopped.Sub(exited)))
	return out
}
