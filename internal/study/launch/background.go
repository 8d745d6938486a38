package launch

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/worker"
	"github.com/boxtax/boxtax/internal/workload"
)

// Load is a workload run on the host beside a run, e.g. a CPU load.
type Load struct {
	Workload string
	Params   map[string]any
}

// Background starts loads on the host, waits until each has said hello, and
// returns a function that stops them all and records what they did in the
// run's notes. It says what it started in the run's settings.
func Background(ctx context.Context, host env.Environment, bgs []Load, settings, notes map[string]string) (stop func(), err error) {
	if len(bgs) == 0 {
		return func() {}, nil
	}
	if host == nil {
		return nil, fmt.Errorf("background loads need the native environment, which is not prepared")
	}
	bgCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var problems, started []string
	problem := func(s string) {
		mu.Lock()
		problems = append(problems, s)
		mu.Unlock()
	}
	for i, bg := range bgs {
		inv, err := worker.New(bg.Workload, bg.Params)
		if err != nil {
			cancel()
			return nil, err
		}
		started = append(started, fmt.Sprintf("%d:%s %s", i, bg.Workload, inv.Params))
		ended := func(err error) {
			if err != nil && bgCtx.Err() == nil {
				problem(fmt.Sprintf("%s ended before the run did: %v", bg.Workload, err))
			}
		}
		p, err := worker.Start(bgCtx, host, inv.Spec())
		if err != nil {
			ended(err)
			continue
		}
		wg.Add(1)
		crash.Go(func() {
			defer wg.Done()
			out := p.Finish(bgCtx)
			for _, m := range out.Messages {
				if m.Kind == workload.KindError {
					problem(bg.Workload + ": " + m.Text)
				}
			}
			ended(out.Err)
		})
		select {
		case <-p.Hello():
		case <-time.After(10 * time.Second):
			problem(bg.Workload + " did not start within 10 s")
		}
	}
	settings["background"] = strings.Join(started, "; ")
	return func() {
		cancel()
		wg.Wait()
		if len(problems) > 0 {
			notes["background_warning"] = strings.Join(problems, "; ")
		}
	}, nil
}
