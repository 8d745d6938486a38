package study

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/boxtax/boxtax/internal/crash"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// startBackground starts, on the host, what the run's background factors
// ask for (e.g. a CPU load), waits until each has said hello, and returns a
// function that stops them all and records what they did in the run's notes.
func (r *Runner) startBackground(ctx context.Context, run *executedRun) (stop func(), err error) {
	if r.Spec == nil {
		return func() {}, nil
	}
	bgs := r.Spec.BackgroundFor(run.Levels)
	if len(bgs) == 0 {
		return func() {}, nil
	}
	if r.Host == nil {
		return nil, fmt.Errorf("background loads need the native environment, which is not prepared")
	}
	bgCtx, cancel := context.WithCancel(ctx)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var problems, started []string
	for i, bg := range bgs {
		params, err := json.Marshal(bg.Params)
		if err != nil {
			cancel()
			return nil, err
		}
		hello := make(chan struct{})
		var once sync.Once
		pr, pw := io.Pipe()
		wg.Add(2)
		crash.Go(func() {
			defer wg.Done()
			_ = workload.Decode(pr, func(m workload.Message) {
				switch m.Kind {
				case workload.KindHello:
					once.Do(func() { close(hello) })
				case workload.KindError:
					mu.Lock()
					problems = append(problems, bg.Workload+": "+m.Text)
					mu.Unlock()
				}
			})
			_, _ = io.Copy(io.Discard, pr)
		})
		crash.Go(func() {
			defer wg.Done()
			spec := env.Spec{Args: []string{"worker", "--workload", bg.Workload, "--params", string(params)}}
			_, err := env.Run(bgCtx, r.Host, spec, pw, io.Discard)
			pw.Close()
			once.Do(func() { close(hello) })
			if err != nil && bgCtx.Err() == nil {
				mu.Lock()
				problems = append(problems, fmt.Sprintf("%s ended before the run did: %v", bg.Workload, err))
				mu.Unlock()
			}
		})
		select {
		case <-hello:
		case <-time.After(10 * time.Second):
			mu.Lock()
			problems = append(problems, bg.Workload+" did not start within 10 s")
			mu.Unlock()
		}
		started = append(started, fmt.Sprintf("%d:%s %s", i, bg.Workload, params))
	}
	run.Settings["background"] = strings.Join(started, "; ")
	return func() {
		cancel()
		wg.Wait()
		if len(problems) > 0 {
			run.Notes["background_warning"] = strings.Join(problems, "; ")
		}
	}, nil
}
