package env

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"syscall"
	"time"
)

const StopTimeout = 15 * time.Second

// CreateTimeout bounds creating a container, which Ctrl-C does not cut short
// (see Env.Start).
const CreateTimeout = 2 * time.Minute

// Native makes the native environment.
func Native(o Options) Environment { return &native{bin: o.BinaryPath, getenv: o.Getenv} }

// native runs the worker as a child process of the controller on the host.
type native struct {
	bin    string
	getenv func(string) string // chooses the engine an image's files come from
}

func (n *native) Name() string        { return "native" }
func (n *native) Description() string { return "the worker as a plain process on the host" }

func (n *native) Available(context.Context) error {
	if n.bin == "" {
		return errors.New("no worker binary configured")
	}
	if _, err := os.Stat(n.bin); err != nil {
		return fmt.Errorf("worker binary: %w", err)
	}
	return nil
}

func (n *native) Prepare(ctx context.Context) error { return n.Available(ctx) }

func (n *native) Start(ctx context.Context, spec Spec, stdout, stderr io.Writer) (Instance, error) {
	args := spec.Args
	if spec.CPUSet != "" && spec.PinFlag != "" {
		// The program pins itself (sched_setaffinity on every thread).
		args = append(slices.Clone(args), spec.PinFlag, spec.CPUSet)
	}
	if spec.Image != "" {
		return n.startInImage(ctx, spec, args, stdout, stderr)
	}
	cmd := exec.Command(n.bin, args...)
	if spec.Netns != "" {
		// ip execs the worker once in the namespace, so the worker is
		// still the process started here and every thread of it is in the
		// namespace (a Go program cannot move all its threads itself).
		cmd = exec.Command("ip", append([]string{"netns", "exec", spec.Netns, n.bin}, args...)...)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// A process group of its own: Ctrl-C in the terminal reaches the
	// controller, which then stops the worker itself, in order.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	settings := Settings{"env": "native"}
	if spec.CPUSet != "" {
		settings["cpuset"] = spec.CPUSet
	}
	if spec.Netns != "" {
		settings["netns"] = spec.Netns
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting worker %s: %w", n.bin, err)
	}
	settings["pid"] = strconv.Itoa(cmd.Process.Pid)
	return &nativeInstance{cmd: cmd, settings: settings, done: make(chan struct{})}, nil
}

type nativeInstance struct {
	cmd      *exec.Cmd
	settings Settings
	done     chan struct{}
	err      error
}

func (i *nativeInstance) Settings() Settings { return i.settings }

func (i *nativeInstance) Wait() error {
	i.err = i.cmd.Wait()
	close(i.done)
	if i.err != nil {
		return fmt.Errorf("worker: %w", i.err)
	}
	return nil
}

// stopGrace is how long a native worker has, after SIGTERM, to stop what
// it started in order (a server's children in sessions of their own, which
// its process group does not hold) and remove its scratch files, before
// its group is killed; a workload's own stop waits up to 5 s.
const stopGrace = 8 * time.Second

// Stop asks the worker alone to stop (SIGTERM: not its group, whose
// members would die before the worker could find their children), then
// kills whatever is left of its group.
func (i *nativeInstance) Stop(ctx context.Context) error {
	select {
	case <-i.done:
		return nil
	default:
	}
	_ = syscall.Kill(i.cmd.Process.Pid, syscall.SIGTERM)
	grace := time.NewTimer(stopGrace)
	defer grace.Stop()
	select {
	case <-i.done:
	case <-grace.C:
	case <-ctx.Done():
	}
	_ = syscall.Kill(-i.cmd.Process.Pid, syscall.SIGKILL)
	select {
	case <-i.done:
	case <-ctx.Done():
		return fmt.Errorf("worker pid %d did not exit after SIGKILL", i.cmd.Process.Pid)
	}
	return nil
}
