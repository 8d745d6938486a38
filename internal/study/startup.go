package study

import (
	"context"
	"github.com/boxtax/boxtax/internal/crash"
	"io"
	"strconv"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// ControllerMeasured is implemented by workloads whose metrics the controller
// measures around the worker (ctr.startup) instead of the worker itself.
type ControllerMeasured interface {
	ControllerMeasured()
}

// firstLine timestamps the first bytes written to it and passes everything on.
type firstLine struct {
	w    io.Writer
	once sync.Once
	at   time.Time
}

func (f *firstLine) Write(p []byte) (int, error) {
	f.once.Do(func() { f.at = time.Now() })
	return f.w.Write(p)
}

// timedStartup starts the worker and times each phase from the create
// request: the worker's first instruction (its hello), its first output at
// the controller, its exit, and the stop and removal afterwards. The timings
// become the run's samples, as if the worker had reported them.
func timedStartup(ctx context.Context, e env.Environment, spec env.Spec) workerOutput {
	var out workerOutput
	pr, pw := io.Pipe()
	first := &firstLine{w: pw}
	var wg sync.WaitGroup
	wg.Add(1)
	crash.Go(func() {
		defer wg.Done()
		out.decodeErr = workload.Decode(pr, func(m workload.Message) { out.messages = append(out.messages, m) })
		_, _ = io.Copy(io.Discard, pr)
	})
	stderr := newStderrTail(4096)
	t0 := time.Now()
	inst, err := e.Start(ctx, spec, first, stderr)
	if err != nil {
		pw.Close()
		wg.Wait()
		out.err = err
		return out
	}
	waitErr := make(chan error, 1)
	crash.Go(func() { waitErr <- inst.Wait() })
	select {
	case out.err = <-waitErr:
	case <-ctx.Done():
		out.err = ctx.Err()
	}
	exited := time.Now()
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	if err := inst.Stop(stopCtx); err != nil && out.err == nil {
		out.err = err
	}
	stopped := time.Now()
	pw.Close()
	wg.Wait()
	out.settings = inst.Settings()
	out.stderr = stderrSuffix(stderr)

	ms := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e6 }
	setting := func(k string) float64 {
		v, _ := strconv.ParseFloat(out.settings[k], 64)
		return v
	}
	add := func(metric string, v float64) {
		out.messages = append(out.messages, workload.Message{Kind: workload.KindSample, Metric: metric, Value: v})
	}
	for _, m := range out.messages {
		if m.Kind == workload.KindHello && m.UnixNs > 0 {
			add("activation_ms", ms(time.Unix(0, m.UnixNs).Sub(t0)))
			break
		}
	}
	add("create_ms", setting("create_ms"))
	add("start_ms", setting("start_ms"))
	if !first.at.IsZero() {
		add("first_output_ms", ms(first.at.Sub(t0)))
	}
	add("exit_ms", ms(exited.Sub(t0)))
	add("stop_remove_ms", ms(stopped.Sub(exited)))
	return out
}
