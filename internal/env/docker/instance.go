package docker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

// dockerInstance is a started worker container. Its output is copied by one
// goroutine and its exit is awaited by another; both end when the container
// exits or when Stop removes it.
type dockerInstance struct {
	client         *docker.Client
	id             string
	stdout, stderr io.Writer
	settings       env.Settings

	ctx    context.Context // of the attach and wait requests; Stop cancels it
	cancel context.CancelFunc

	attached, watching bool // set by Start before it returns
	// waitAfterOutput asks for the exit status only once the output stream
	// ended (Podman, whose wait for a running container keeps a CPU busy).
	waitAfterOutput    bool
	copyDone, waitDone chan struct{}
	copyErr            error
	exit               docker.ExitStatus
	waitErr            error
	stopped            atomic.Bool

	// undo removes what the environment made for the container besides
	// it (a bind-mounted directory); Stop calls it after the removal.
	undo func() error

	waitOnce, stopOnce sync.Once
	waitResult         error
	stopErr            error
}

func newDockerInstance(c *docker.Client, id string, stdout, stderr io.Writer) *dockerInstance {
	ctx, cancel := context.WithCancel(context.Background())
	return &dockerInstance{
		client: c, id: id, stdout: stdout, stderr: stderr, ctx: ctx, cancel: cancel,
		copyDone: make(chan struct{}), waitDone: make(chan struct{}),
	}
}

// attach connects to the container's output and starts copying it. The
// stream outlives ctx, which bounds only the attaching.
func (i *dockerInstance) attach(ctx context.Context) error {
	stop := context.AfterFunc(ctx, i.cancel)
	stream, err := i.client.ContainerAttach(i.ctx, i.id)
	if !stop() {
		err = errors.Join(err, ctx.Err())
	}
	if err != nil {
		if stream != nil {
			stream.Close()
		}
		return err
	}
	i.attached = true
	crash.Go(func() {
		defer close(i.copyDone)
		defer stream.Close()
		i.copyErr = docker.Demux(i.stdout, i.stderr, stream)
	})
	return nil
}

// watch starts waiting for the container's exit. Called after the
// container started, the not-running condition cannot miss an early exit.
func (i *dockerInstance) watch() {
	i.watching = true
	crash.Go(func() {
		defer close(i.waitDone)
		if i.waitAfterOutput && i.attached {
			// The attach stream ends when the container exits; then
			// the wait answers at once. Podman 4.3's compatible wait
			// polls the container's state without pause while it runs,
			// a CPU of the host taken from the workload being measured
			// (-37 % cpu.prime events/s in podman-host, measured).
			select {
			case <-i.copyDone:
			case <-i.ctx.Done():
			}
		}
		i.exit, i.waitErr = i.client.ContainerWait(i.ctx, i.id, docker.WaitNotRunning)
	})
}

func (i *dockerInstance) Settings() env.Settings { return i.settings }

// Wait blocks until the container exited and its output has been copied.
func (i *dockerInstance) Wait() error {
	i.waitOnce.Do(func() { i.waitResult = i.wait() })
	return i.waitResult
}

func (i *dockerInstance) wait() error {
	<-i.waitDone
	select {
	case <-i.copyDone:
	case <-time.After(env.OutputGrace):
		i.cancel()
		<-i.copyDone
		return fmt.Errorf("container %s exited but its output did not end within %v: the output may be incomplete; "+
			"see the daemon's log (journalctl -u docker)", env.ShortID(i.id), env.OutputGrace)
	}
	if i.waitErr != nil || i.exit.Code != 0 {
		if i.stopped.Load() {
			return fmt.Errorf("container %s was stopped before it exited", env.ShortID(i.id))
		}
	}
	if i.waitErr != nil {
		return i.waitErr
	}
	if i.exit.Error != "" {
		return fmt.Errorf("container %s: docker daemon: %s", env.ShortID(i.id), i.exit.Error)
	}
	if i.copyErr != nil {
		return fmt.Errorf("container %s: %w", env.ShortID(i.id), i.copyErr)
	}
	if i.exit.Code != 0 {
		return i.exitError()
	}
	return nil
}

// exitError describes a non-zero exit, naming the OOM killer when it struck.
func (i *dockerInstance) exitError() error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if ct, err := i.client.ContainerInspect(ctx, i.id); err == nil && ct.State.OOMKilled {
		return fmt.Errorf("container %s exited with code %d: it was OOM-killed (out of memory): "+
			"raise the memory limit or make the workload smaller", env.ShortID(i.id), i.exit.Code)
	}
	return fmt.Errorf("container %s exited with code %d", env.ShortID(i.id), i.exit.Code)
}

// Stop kills the container if it still runs and removes it. It is
// idempotent, and safe to call while Wait blocks: Wait then returns. When it
// returns, nothing more is written to the instance's stdout and stderr.
func (i *dockerInstance) Stop(ctx context.Context) error {
	i.stopOnce.Do(func() { i.stopErr = i.stop(ctx) })
	return i.stopErr
}

func (i *dockerInstance) stop(ctx context.Context) error {
	i.stopped.Store(true)
	var errs []error
	err := i.client.ContainerKill(ctx, i.id, "KILL")
	if err != nil && !docker.IsConflict(err) && !docker.IsNotFound(err) { // 409: it no longer runs
		errs = append(errs, err)
	}
	err = i.client.ContainerRemove(ctx, i.id, true)
	for try := 0; try < 3 && err != nil && !docker.IsNotFound(err) && !docker.IsConflict(err) && ctx.Err() == nil; try++ {
		// Podman sometimes fails to remove the root filesystem of a
		// container it has just killed (CI saw it with userns=auto, whose
		// layers are mapped per container); a moment later it succeeds.
		time.Sleep(time.Duration(300*(try+1)) * time.Millisecond)
		err = i.client.ContainerRemove(ctx, i.id, true)
	}
	if err != nil && !docker.IsNotFound(err) && !docker.IsConflict(err) { // 409: removal already under way
		errs = append(errs, fmt.Errorf("%w: remove it with boxtax clean", err))
	}
	i.cancel()
	if i.undo != nil {
		if err := i.undo(); err != nil {
			errs = append(errs, err)
		}
	}
	for _, w := range []struct {
		started bool
		done    chan struct{}
		what    string
	}{{i.attached, i.copyDone, "copying its output"}, {i.watching, i.waitDone, "waiting for its exit"}} {
		if !w.started {
			continue
		}
		select {
		case <-w.done:
		case <-ctx.Done():
			errs = append(errs, fmt.Errorf("container %s: %s did not end: %w", env.ShortID(i.id), w.what, ctx.Err()))
		}
	}
	return errors.Join(errs...)
}
