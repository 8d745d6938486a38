package hostprog

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Process is a program a workload started. Its death is noticed when it
// happens (a broker, redis or node dying mid-run is a fact of the run,
// not a reason to hang), and Stop always reaps it.
type Process struct {
	name   string
	cmd    *exec.Cmd
	out    *Tail
	exited chan struct{}

	mu      sync.Mutex
	err     error
	stopped bool // Stop was called: its end is not a failure
}

// Start starts cmd under name (used in errors). It dies with this
// process's thread (a kill of the worker leaves nothing behind). Its
// standard output and error, where cmd leaves them unset, go into a Tail
// of the last 4 KiB.
func Start(name string, cmd *exec.Cmd) (*Process, error) {
	p := &Process{name: name, cmd: cmd, out: &Tail{Max: 4096}, exited: make(chan struct{})}
	if cmd.Stderr == nil {
		cmd.Stderr = p.out
	}
	if cmd.Stdout == nil {
		cmd.Stdout = p.out
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	// Its output is copied until every holder of the pipe closes it: nginx's
	// workers hold it after a master that was killed. Stop waiting 1 s after
	// the process itself exited.
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting %s: %w", name, err)
	}
	go func() {
		err := cmd.Wait()
		p.mu.Lock()
		p.err = err
		p.mu.Unlock()
		close(p.exited)
	}()
	return p, nil
}

// Pid is the process id.
func (p *Process) Pid() int { return p.cmd.Process.Pid }

// Exited is closed once the process ended and was reaped.
func (p *Process) Exited() <-chan struct{} { return p.exited }

// Err is how the process ended (nil for exit status 0), once Exited is
// closed.
func (p *Process) Err() error {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.err
}

// Output is the end of what the process printed, without the line end.
func (p *Process) Output() string { return strings.TrimRight(p.out.String(), "\n\r ") }

// Alive tells whether the process still runs.
func (p *Process) Alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// Died says how the process ended if it ended before Stop was called, ""
// while it runs or when it was stopped.
func (p *Process) Died() string {
	if p.Alive() {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return ""
	}
	msg := "exited"
	if p.err != nil {
		msg = p.err.Error()
	}
	var ee *exec.ExitError
	if errors.As(p.err, &ee) && ee.Sys().(syscall.WaitStatus).Signaled() {
		return msg // killed: what it said before is beside the point
	}
	if s := lastLine(p.Output()); s != "" {
		msg += " (it said: " + s + ")"
	}
	return msg
}

// Stop sends sig, waits up to grace for the process to end, then kills it;
// it returns once the process is reaped. It may be called more than once.
func (p *Process) Stop(sig syscall.Signal, grace time.Duration) {
	p.mu.Lock()
	if p.Alive() {
		p.stopped = true
	}
	p.mu.Unlock()
	if !p.Alive() {
		return
	}
	_ = p.cmd.Process.Signal(sig)
	t := time.NewTimer(grace)
	defer t.Stop()
	select {
	case <-p.exited:
		return
	case <-t.C:
	}
	_ = p.cmd.Process.Kill()
	<-p.exited
}

// WaitReady polls ready every 10 ms until it succeeds, the process ends or
// the timeout passes.
func (p *Process) WaitReady(ctx context.Context, timeout time.Duration, ready func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		if msg := p.Died(); msg != "" || !p.Alive() {
			return fmt.Errorf("%s ended before it was ready: %s", p.name, msg)
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s was not ready within %v: %w", p.name, timeout, err)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(10 * time.Millisecond):
		}
	}
}

// lastLine is the last line of s, at most 300 bytes of it.
func lastLine(s string) string {
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		s = s[i+1:]
	}
	if len(s) > 300 {
		s = s[len(s)-300:]
	}
	return s
}
