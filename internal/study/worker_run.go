package study

import (
	"context"
	"github.com/boxtax/boxtax/internal/crash"
	"io"
	"sync"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/workload"
)

// workerOutput is everything one worker process or container produced.
type workerOutput struct {
	messages  []workload.Message
	settings  env.Settings
	err       error  // the environment's: non-zero exit, container died...
	decodeErr error  // reading the protocol failed
	stderr    string // "; stderr: ..." tail, or ""
}

// runWorker starts a worker in an environment, reads its protocol lines
// until it exits, and always stops it (also when ctx ends).
func runWorker(ctx context.Context, e env.Environment, spec env.Spec) workerOutput {
	var out workerOutput
	pr, pw := io.Pipe()
	var wg sync.WaitGroup
	wg.Add(1)
	crash.Go(func() {
		defer wg.Done()
		out.decodeErr = workload.Decode(pr, func(m workload.Message) { out.messages = append(out.messages, m) })
		_, _ = io.Copy(io.Discard, pr) // never block the worker
	})
	stderr := newStderrTail(4096)
	out.settings, out.err = env.Run(ctx, e, spec, pw, stderr)
	pw.Close()
	wg.Wait()
	out.stderr = stderrSuffix(stderr)
	return out
}
