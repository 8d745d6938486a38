package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostprog"
	"github.com/boxtax/boxtax/internal/workload"
)

// stopTimeout bounds the kill and removal of a worker, also after ctx ended.
const stopTimeout = 15 * time.Second

// stderrKept is how much of a worker's stderr is quoted when it fails.
const stderrKept = 4096

// Process is a worker started in an environment. Its output is read as it
// comes: Hello, AwaitListening and FirstOutput tell where it is; Output has
// everything it said once it is stopped.
type Process struct {
	inst      env.Instance
	requested time.Time // when the environment was asked to start it
	pw        *io.PipeWriter
	first     firstWrite
	stderr    *hostprog.Tail

	hello     chan struct{} // closed at its hello, or when its output ends
	listening chan struct{} // closed at its listening note
	exited    chan struct{} // closed when it exited
	decoded   chan struct{} // closed when its output is all read

	mu        sync.Mutex
	messages  []workload.Message
	exitErr   error
	decodeErr error
}

// firstWrite notes when the first bytes were written and passes them on.
type firstWrite struct {
	w  io.Writer
	at atomic.Pointer[time.Time]
}

func (f *firstWrite) Write(p []byte) (int, error) {
	if f.at.Load() == nil {
		now := time.Now()
		f.at.CompareAndSwap(nil, &now)
	}
	return f.w.Write(p)
}

// Start starts a worker as spec says and reads its protocol lines as they
// come. The caller ends it with Finish or EndServer, or with Stop and then
// Output.
func Start(ctx context.Context, e env.Environment, spec env.Spec) (*Process, error) {
	p := begin()
	if err := p.start(ctx, e, spec); err != nil {
		p.Output() // ends the reading
		return nil, err
	}
	return p, nil
}

// begin makes a process and starts reading its output.
func begin() *Process {
	pr, pw := io.Pipe()
	p := &Process{pw: pw, stderr: hostprog.KeepEnds(stderrKept), hello: make(chan struct{}), listening: make(chan struct{}),
		exited: make(chan struct{}), decoded: make(chan struct{})}
	p.first.w = pw
	var helloOnce, listeningOnce sync.Once
	crash.Go(func() {
		defer close(p.decoded)
		defer helloOnce.Do(func() { close(p.hello) })
		err := workload.Decode(pr, func(m workload.Message) {
			p.mu.Lock()
			p.messages = append(p.messages, m)
			p.mu.Unlock()
			switch {
			case m.Kind == workload.KindHello:
				helloOnce.Do(func() { close(p.hello) })
			case m.Kind == workload.KindNote && m.Key == workload.NoteListening:
				listeningOnce.Do(func() { close(p.listening) })
			}
		})
		_, _ = io.Copy(io.Discard, pr) // never block the worker
		p.mu.Lock()
		p.decodeErr = err
		p.mu.Unlock()
	})
	return p
}

// start starts the worker and watches for its exit.
func (p *Process) start(ctx context.Context, e env.Environment, spec env.Spec) error {
	p.requested = time.Now()
	inst, err := e.Start(ctx, spec, &p.first, p.stderr)
	if err != nil {
		return err
	}
	p.inst = inst
	crash.Go(func() {
		err := inst.Wait()
		p.mu.Lock()
		p.exitErr = err
		p.mu.Unlock()
		close(p.exited)
	})
	return nil
}

// Requested is when the environment was asked to start the worker.
func (p *Process) Requested() time.Time { return p.requested }

// Hello is closed when the worker has said hello, or when its output ended
// without it.
func (p *Process) Hello() <-chan struct{} { return p.hello }

// FirstOutput is when the first bytes of the worker's stdout arrived; zero
// when none have.
func (p *Process) FirstOutput() time.Time {
	if at := p.first.at.Load(); at != nil {
		return *at
	}
	return time.Time{}
}

// AwaitListening waits until the worker, a server, says it listens and can
// take its client.
func (p *Process) AwaitListening(ctx context.Context, timeout time.Duration) error {
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case <-p.listening:
		return nil
	case <-p.exited:
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, m := range p.messages {
			if m.Kind == workload.KindError {
				return fmt.Errorf("the server ended before listening: %s", m.Text)
			}
		}
		return fmt.Errorf("the server ended before listening: %v", p.exitErr)
	case <-t.C:
		return fmt.Errorf("the server did not listen within %v", timeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Wait waits until the worker exits and returns why it did, or until ctx
// ends and returns ctx's error.
func (p *Process) Wait(ctx context.Context) error {
	select {
	case <-p.exited:
		p.mu.Lock()
		defer p.mu.Unlock()
		return p.exitErr
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Stop kills the worker if it still runs and removes what its start
// made; it is given stopTimeout, also when ctx has ended.
func (p *Process) Stop(ctx context.Context) error {
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopTimeout)
	defer cancel()
	return p.inst.Stop(stopCtx)
}

// Output is what the worker said; its Err is left to the caller. Call it
// once, after Stop: it ends the reading of the worker's output.
func (p *Process) Output() Output {
	p.pw.Close()
	<-p.decoded
	p.mu.Lock()
	defer p.mu.Unlock()
	out := Output{Messages: p.messages, DecodeErr: p.decodeErr, Stderr: stderrSuffix(p.stderr)}
	if p.inst != nil {
		out.Settings = p.inst.Settings()
	}
	return out
}

// Finish waits until the worker exits, or ctx ends, and stops it; its
// output's Err says why it exited, or is ctx's error.
func (p *Process) Finish(ctx context.Context) Output {
	err := p.Wait(ctx)
	if stopErr := p.Stop(ctx); stopErr != nil && err == nil {
		err = fmt.Errorf("cleaning up after the run: %w", stopErr)
	}
	out := p.Output()
	out.Err = err
	return out
}

// Run starts a worker, reads its protocol lines until it exits, and always
// stops it, also when ctx ends.
func Run(ctx context.Context, e env.Environment, spec env.Spec) Output {
	p := begin()
	if err := p.start(ctx, e, spec); err != nil {
		out := p.Output()
		out.Err = err
		return out
	}
	return p.Finish(ctx)
}

// EndServer ends a server once its client is done: it gives it grace to end
// by itself (it does once its client's session is over), then stops it, and
// returns what it said. A server that had to be stopped is noted, not
// failed: its client's figures stand.
func (p *Process) EndServer(ctx context.Context, grace time.Duration) Output {
	stopped := false
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited: // a server that has already ended is not stopped, whatever the grace
	default:
		select {
		case <-p.exited:
		case <-t.C:
			stopped = true
		case <-ctx.Done():
			stopped = true
		}
	}
	stopErr := p.Stop(ctx)
	if stopped {
		<-p.exited
	}
	out := p.Output()
	switch {
	case stopped && grace > 0 && ctx.Err() == nil:
		out.Messages = append(out.Messages, workload.Message{Kind: workload.KindNote, Key: "stopped",
			Text: fmt.Sprintf("did not end within %v of its client and was stopped", grace)})
	case !stopped && p.exitErr != nil:
		out.Err = p.exitErr
	}
	if stopErr != nil {
		out.Err = errors.Join(out.Err, fmt.Errorf("cleaning up after the server: %w", stopErr))
	}
	return out
}
