package ingest

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

// process is a program the server side started: redis, nginx or a node.
// Its death is noticed when it happens (a node or redis dying mid-run is a
// fact of the run, not a reason to hang), and stop always reaps it.
type process struct {
	name   string
	cmd    *exec.Cmd
	stderr *tailBuffer
	exited chan struct{}

	mu      sync.Mutex
	err     error
	stopped bool // stop was called: its end is not a failure
}

// startProcess starts cmd, which dies with this process's thread (a kill
// of the worker leaves nothing behind) and is in its process group (so the
// controller's kill of the group reaches it too).
func startProcess(name string, cmd *exec.Cmd) (*process, error) {
	p := &process{name: name, cmd: cmd, stderr: &tailBuffer{max: 4096}, exited: make(chan struct{})}
	if cmd.Stderr == nil {
		cmd.Stderr = p.stderr
	}
	if cmd.Stdout == nil {
		cmd.Stdout = p.stderr
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
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

// alive tells whether the process still runs.
func (p *process) alive() bool {
	select {
	case <-p.exited:
		return false
	default:
		return true
	}
}

// died says how the process ended if it ended before stop was called, ""
// while it runs or when it was stopped.
func (p *process) died() string {
	if p.alive() {
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
	if s := lastLine(p.stderr.String()); s != "" {
		msg += " (it said: " + s + ")"
	}
	return msg
}

// stop sends sig, waits up to grace for the process to end, then kills it;
// it returns once the process is reaped.
func (p *process) stop(sig syscall.Signal, grace time.Duration) {
	p.mu.Lock()
	if p.alive() {
		p.stopped = true
	}
	p.mu.Unlock()
	if !p.alive() {
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

// waitReady polls ready every 10 ms until it succeeds, the process ends or
// the timeout passes.
func (p *process) waitReady(ctx context.Context, timeout time.Duration, ready func() error) error {
	deadline := time.Now().Add(timeout)
	for {
		err := ready()
		if err == nil {
			return nil
		}
		if msg := p.died(); msg != "" || !p.alive() {
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

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	max int
	b   []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > t.max {
		t.b = append([]byte(nil), t.b[len(t.b)-t.max:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(trimSpace(t.b))
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[len(b)-1] == '\n' || b[len(b)-1] == ' ' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
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
