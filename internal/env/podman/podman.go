// Package podman runs the worker in a Podman container (podman-bridge,
// podman-host, podman-rootless) through Podman's Docker-compatible API, on
// the user's service or one boxtax starts.
package podman

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	dockerenv "github.com/boxtax/boxtax/internal/env/docker"
)

// Environments are Podman's environments by name.
func Environments() map[string]env.Factory {
	return map[string]env.Factory{
		"podman-bridge": dockerenv.Factory("podman-bridge", "bridge",
			`the worker in a Podman container on Podman's default bridge network with NAT (netavark), as "podman run" does`, newPodmanEnv),
		"podman-host": dockerenv.Factory("podman-host", "host",
			`the worker in a Podman container sharing the host's network stack, "podman run --network host"`, newPodmanEnv),
		"podman-rootless": dockerenv.Factory("podman-rootless", "bridge",
			`the worker in a rootless Podman container (an ordinary user's, in a user namespace) on its bridge network, ports forwarded by rootlessport`,
			func(name, networkMode, description string, o env.Options) *podmanEnv {
				e := newPodmanEnv(name, networkMode, description, o)
				e.rootless = true
				return e
			}),
	}
}

// podmanEnv runs the worker in a Podman container through Podman's
// Docker-compatible API: the same image (imported, as on Docker), the same
// labels and the same container settings as the Docker environments, on
// the user's Podman socket when one answers, else on a Podman service
// boxtax starts for the study and stops at its end (service.go).
type podmanEnv struct {
	*dockerenv.Env // its client is set once the service answers

	// rootless: Podman runs as an ordinary user (rootlessUser), also when
	// boxtax runs as root.
	rootless bool

	mu      sync.Mutex
	svc     *podmanService
	openErr error
}

func newPodmanEnv(name, networkMode, description string, o env.Options) *podmanEnv {
	d := dockerenv.NewOn(name, networkMode, description, o, dockerenv.Engine{WaitAfterOutput: true, RuntimeByService: true, ImageSource: dockerenv.ImageSource(o)})
	return &podmanEnv{Env: d}
}

// service finds or starts the Podman service once; later calls return the
// first answer.
func (p *podmanEnv) service(ctx context.Context) (*podmanService, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.svc == nil && p.openErr == nil {
		var u *podmanUser
		if p.rootless {
			u, p.openErr = rootlessUser(p.Options().GetenvOrOS())
		}
		if p.openErr == nil {
			p.svc, p.openErr = openPodmanService(ctx, u, p.Options().Variant["runtime"], p.Options().GetenvOrOS())
		}
		if p.openErr == nil {
			p.Use(p.svc.client, p.svc.limits)
		}
	}
	if p.openErr != nil {
		return nil, fmt.Errorf("%s: %w", p.Name(), p.openErr)
	}
	return p.svc, nil
}

// Available finds or starts the Podman service and checks that it can run
// the worker: the binary's architecture, and an OCI runtime that works on
// this host's cgroup layout.
func (p *podmanEnv) Available(ctx context.Context) error {
	if err := p.checkPodmanRuntime(); err != nil {
		return fmt.Errorf("%s: %w", p.Name(), err)
	}
	svc, err := p.service(ctx)
	if err != nil {
		return err
	}
	if err := svc.check(ctx); err != nil {
		return fmt.Errorf("%s: %w", p.Name(), err)
	}
	return p.Env.Available(ctx)
}

// Prepare checks availability and imports the worker image into Podman's
// store once per process.
func (p *podmanEnv) Prepare(ctx context.Context) error {
	if err := p.Available(ctx); err != nil {
		return err
	}
	if p.NetworkMode() == "bridge" && !p.svc.rootless {
		if err := p.svc.allowForward(ctx); err != nil {
			return fmt.Errorf("%s: %w", p.Name(), err)
		}
	}
	return p.Env.Prepare(ctx)
}

// Start starts the worker as the Docker environments do, with the engine
// facts of Podman in its settings.
func (p *podmanEnv) Start(ctx context.Context, spec env.Spec, stdout, stderr io.Writer) (env.Instance, error) {
	svc, err := p.service(ctx)
	if err != nil {
		return nil, err
	}
	if svc.rootless && svc.info.CgroupVersion == "1" && (spec.CPUSet != "" || spec.CPURealtimeRuntimeUs > 0) {
		// Podman would only warn ("Resource limits are not supported and
		// ignored on cgroups V1 rootless systems") and run unpinned.
		return nil, fmt.Errorf("%s: rootless Podman cannot give a container CPUs %q or a real-time budget on a cgroup v1 host "+
			"(it ignores resource limits there): run this workload in podman-bridge, or on a cgroup v2 host", p.Name(), spec.CPUSet)
	}
	if why := gVisorRefuses(spec); why != "" && p.Options().Variant["runtime"] == "runsc" {
		return nil, fmt.Errorf("%s: %s", p.Name(), why)
	}
	inst, err := p.Env.Start(ctx, spec, stdout, stderr)
	if err != nil {
		return nil, svc.explain(err)
	}
	s := inst.Settings()
	s["engine"] = "podman"
	s["podman_service"] = p.ServiceOrigin()
	if err := p.recordRuntime(ctx, s); err != nil {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), env.StopTimeout)
		defer cancel()
		return nil, errors.Join(fmt.Errorf("%s: %w", p.Name(), err), inst.Stop(stopCtx))
	}
	if svc.rootless {
		s["rootless"] = "true"
	}
	return inst, nil
}

// NATAddress implements Networked: 127.0.0.1. Podman's bridge (podman0)
// exists only while a container is on it, so its gateway cannot be
// listened on before the server starts; netavark's port forwarding rules
// catch connections to every local address, 127.0.0.1 included (with
// route_localnet), in the kernel: the NAT path, with no userland proxy.
func (p *podmanEnv) NATAddress(ctx context.Context) (string, error) {
	if _, err := p.service(ctx); err != nil {
		return "", err
	}
	return "127.0.0.1", nil
}

// NoLoopbackPorts implements NoLoopbackPorts: rootful Podman has no
// userland proxy like Docker's docker-proxy for the wire level proxy to
// measure.
func (p *podmanEnv) NoLoopbackPorts() string {
	return "Podman runs no userland proxy like docker-proxy (its ports are netavark's kernel NAT rules); the wire level proxy measures Docker's"
}

// Client is the Docker-API client of the Podman service, once available:
// the engine facts of a study are read through it.
func (p *podmanEnv) Client() *docker.Client {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.svc == nil {
		return nil
	}
	return p.svc.client
}

// ServiceOrigin says which Podman service runs the containers: the user's
// socket, or "its own podman system service" when boxtax started one.
func (p *podmanEnv) ServiceOrigin() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.svc == nil {
		return ""
	}
	if p.svc.cmd != nil {
		return "boxtax's own podman system service"
	}
	return p.svc.client.Host()
}

// Close stops the Podman service boxtax started for the study; a user's
// own service is left running.
func (p *podmanEnv) Close(ctx context.Context) error {
	p.mu.Lock()
	svc := p.svc
	p.svc, p.openErr = nil, nil
	p.Use(nil, nil)
	p.mu.Unlock()
	if svc == nil {
		return nil
	}
	return svc.close(ctx)
}

// Clean implements Cleaner for Podman: boxtax's containers (and with
// Images its images) in Podman's store, as the Docker environments' Clean,
// reached through the user's service or one started for the purpose.
// Where Podman is not installed it does nothing.
func (p *podmanEnv) Clean(ctx context.Context, o env.CleanOptions) (done []string, err error) {
	svc, err := openPodmanService(ctx, nil, "", p.Options().GetenvOrOS())
	if err != nil {
		if _, lookErr := exec.LookPath("podman"); lookErr != nil {
			return nil, nil
		}
		return nil, fmt.Errorf("podman: %w", err)
	}
	defer func() { err = errors.Join(err, svc.close(context.WithoutCancel(ctx))) }()
	_, ferr := removePodmanForward(ctx, 0)
	res, err := dockerenv.RemoveManaged(ctx, svc.client, map[string]string{env.LabelManaged: "true"}, o.Force)
	err = errors.Join(ferr, err)
	var images []string
	if err == nil {
		images, err = dockerenv.CleanImages(ctx, svc.client, "Podman: ", o.Images)
	}
	if res.Removed > 0 || res.Live > 0 || res.NotOurs > 0 {
		line := fmt.Sprintf("Podman: removed %d container(s) started by boxtax", res.Removed)
		if res.Live > 0 {
			line += fmt.Sprintf(", left %d of a boxtax that is still running", res.Live)
		}
		if res.NotOurs > 0 {
			line += fmt.Sprintf(", left %d that boxtax did not start (they carry boxtax's labels from their image)", res.NotOurs)
		}
		done = append(done, line)
	}
	return append(done, images...), err
}

// OptionKeys implements env.OptionTaker for Podman, which also makes a user
// namespace per container. Its runtime option chooses the Podman service
// (runtime.go): Podman 4.3 ignores a runtime per container.
func (p *podmanEnv) OptionKeys() []string {
	return append(p.Env.OptionKeys(), "userns")
}

// ImageToDocker moves the image name from Podman (the user's service, or
// one boxtax starts for it) to Docker's client to, the same image id: an
// image study's native side and Docker run the image Podman holds.
func ImageToDocker(ctx context.Context, name string, to *docker.Client, o env.Options) error {
	s, err := openPodmanService(ctx, nil, "", o.GetenvOrOS())
	if err != nil {
		return err
	}
	defer func() { _ = s.close(ctx) }()
	return dockerenv.MoveImage(ctx, name, s.client, to, "Podman", "Docker")
}
