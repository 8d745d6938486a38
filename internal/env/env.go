package env

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/boxtax/boxtax/internal/crash"
)

// Spec says what to start: the boxtax binary's arguments and the settings
// the run asks for. An environment passes Args on without reading them.
type Spec struct {
	Args   []string          // arguments after the boxtax binary, e.g. worker --workload cpu.prime ...
	Labels map[string]string // container labels (study and run ids); ignored natively
	CPUSet string            // CPUs to run on, e.g. "0-1"; empty means any
	CapAdd []string          // Linux capabilities the workload needs, e.g. SYS_NICE
	// PinFlag, when set, is the flag by which the program pins itself to
	// CPUs (the worker's --cpus). An environment that starts a plain
	// process, which no cgroup confines, adds "PinFlag CPUSet" after Args;
	// a container gets CPUSet as its cpuset instead.
	PinFlag string
	// Ulimits the workload needs, by name as in docker run --ulimit (rtprio,
	// memlock, nofile); -1 means unlimited. Natively the worker inherits the
	// controller's limits and they are recorded, not changed.
	Ulimits map[string]int64
	// CPURealtimeRuntimeUs, when set, is the real-time CPU budget of the
	// container's cgroup in microseconds per second (docker --cpu-rt-runtime).
	CPURealtimeRuntimeUs int64
	// Ports the worker listens on as a server. Environments whose workers
	// have a network of their own (docker-bridge) publish each on the host;
	// the others share the host's network and need nothing done.
	Ports []Port
	// Netns, when set, runs a native worker in this network namespace (with
	// ip netns exec): the client of a network workload across an emulated
	// wire. Container environments refuse it.
	Netns string
	// HostPrograms are host executables (absolute paths) the worker starts:
	// container environments run the worker from an image that holds them
	// too, with their libraries and files (workload.Requirements.HostPrograms).
	HostPrograms []string
	// HostFiles are more host files and directories those programs need
	// at the same paths (workload.Requirements.HostFiles).
	HostFiles []string
	// Image, when set, is a local image of the user's that the worker
	// runs in instead of boxtax's own: the static boxtax binary is mounted
	// read-only at /.boxtax/boxtax and is its entrypoint (Docker and
	// Podman; natively the image's files, unpacked, entered by chroot:
	// native_image.go; LXC a container of those files: env/lxc/image.go).
	Image string
	// ImageID, when set, is the id Image must have: every environment of
	// a study runs the same image.
	ImageID string
}

// Settings are the actual settings a run got (container id, image id,
// network mode, cpuset...), recorded with the run.
type Settings map[string]string

// Instance is a started worker.
type Instance interface {
	// Settings are the actual settings of this instance.
	Settings() Settings
	// Wait blocks until the worker exits and its output has been copied; it
	// returns an error for a non-zero exit or a container that died.
	Wait() error
	// Stop kills the worker if it still runs and removes what Start created.
	// It is idempotent and must be called once the instance is no longer needed.
	Stop(ctx context.Context) error
}

// Environment runs the worker somewhere.
type Environment interface {
	Name() string
	// Description says in a line what this environment is.
	Description() string
	// Available returns nil when this environment can run here, or an error
	// saying why not and what to do.
	Available(ctx context.Context) error
	// Prepare makes ready what runs need (e.g. builds the image). It is called
	// once before the first run of a study.
	Prepare(ctx context.Context) error
	// Start starts the worker with its stdout and stderr copied to the writers.
	Start(ctx context.Context, spec Spec, stdout, stderr io.Writer) (Instance, error)
}

// Run starts the worker, waits for it and always stops it, also when ctx
// ends first (Ctrl-C): then the process or container is killed and removed
// and ctx's error is returned.
func Run(ctx context.Context, e Environment, spec Spec, stdout, stderr io.Writer) (Settings, error) {
	inst, err := e.Start(ctx, spec, stdout, stderr)
	if err != nil {
		return nil, err
	}
	done := make(chan error, 1)
	crash.Go(func() { done <- inst.Wait() })
	var runErr error
	select {
	case runErr = <-done:
	case <-ctx.Done():
		runErr = ctx.Err()
	}
	stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), StopTimeout)
	defer cancel()
	if err := inst.Stop(stopCtx); err != nil && runErr == nil {
		runErr = fmt.Errorf("cleaning up after the run: %w", err)
	}
	return inst.Settings(), runErr
}

// Factory makes an environment from options shared by all environments.
type Factory func(Options) Environment

// Options configure environments.
type Options struct {
	// BinaryPath is the boxtax binary that runs as the worker, natively and
	// copied into container images. It must be statically linked for containers.
	BinaryPath string
	// Version names the binary in image tags and labels.
	Version string
	// Variant holds the options of an environment named with them
	// (docker-bridge+seccomp=unconfined); New sets it from the name.
	Variant Variant
	// Getenv reads the environment variables that choose an engine's
	// daemon (DOCKER_HOST, DOCKER_CONFIG, ...): the caller's, not
	// necessarily the process's; nil: the process environment.
	Getenv func(string) string
}

// getenv is o.Getenv, or the process environment when it is nil.
func (o Options) GetenvOrOS() func(string) string {
	if o.Getenv == nil {
		return os.Getenv
	}
	return o.Getenv
}

// Make makes the environment base, whose factory is f, with the options
// v, and names it canonically: options in key order, without those that
// restate its default (network=bridge of docker-bridge, seccomp=default).
// An option the environment does not take is an error.
func Make(base string, f Factory, o Options, v Variant) (Environment, error) {
	o.Variant = v
	e := f(o)
	if err := checkVariant(base, e, v); err != nil {
		return nil, err
	}
	if kept := withoutImplied(e, v); len(kept) < len(v) {
		o.Variant = kept
		e = f(o)
	}
	return e, nil
}
