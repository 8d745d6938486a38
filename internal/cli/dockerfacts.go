package cli

import (
	"context"
	"maps"
	"os/exec"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// dockerFacts asks the Docker engine about itself: which engine, its
// version, the API version negotiated with it, its storage driver and
// cgroups. An engine that cannot be reached is recorded with the reason.
func dockerFacts(ctx context.Context) *hostinfo.Docker {
	c, err := docker.FromEnv()
	if err != nil {
		return &hostinfo.Docker{Error: err.Error()}
	}
	return engineFacts(ctx, c)
}

// engineFacts asks the engine behind c about itself.
func engineFacts(ctx context.Context, c *docker.Client) *hostinfo.Docker {
	d := &hostinfo.Docker{Host: c.Host()}
	if err := c.Ping(ctx); err != nil {
		d.Error = err.Error()
		return d
	}
	e, err := c.Engine(ctx)
	if err != nil {
		d.Error = err.Error()
		return d
	}
	d.Engine, d.ServerVersion, d.APIVersion = e.Name, e.Version, e.APIVersion
	d.DaemonAPI = e.MaxAPIVersion
	if e.MinAPIVersion != "" {
		d.DaemonAPI = e.MinAPIVersion + "-" + e.MaxAPIVersion
	}
	info, err := c.Info(ctx)
	if err != nil {
		d.Error = err.Error()
		return d
	}
	d.StorageDriver, d.CgroupVersion, d.CgroupDriver = info.Driver, info.CgroupVersion, info.CgroupDriver
	d.OCIRuntime, d.Rootless = info.DefaultRuntime, info.Rootless()
	if d.ServerVersion == "" {
		d.ServerVersion = strings.TrimSpace(info.ServerVersion)
	}
	return d
}

// podmanFacts asks the Podman service of an opened podman environment
// (podman-bridge or podman-host, or with rootless podman-rootless) about
// itself; nil when envs has none.
func podmanFacts(ctx context.Context, envs map[string]env.Environment, rootless bool) *hostinfo.Docker {
	for _, name := range slices.Sorted(maps.Keys(envs)) {
		if (env.BaseName(name) == "podman-rootless") != rootless {
			continue
		}
		p, ok := envs[name].(interface {
			Client() *docker.Client
			ServiceOrigin() string
		})
		if !ok || !strings.HasPrefix(name, "podman") {
			continue
		}
		if c := p.Client(); c != nil {
			d := engineFacts(ctx, c)
			d.Host = p.ServiceOrigin()
			return d
		}
	}
	return nil
}

// podmanSysinfo finds or starts a Podman service, asks it about itself and
// stops what it started; nil where Podman is neither installed nor running.
func podmanSysinfo(ctx context.Context, g *Globals) *hostinfo.Docker {
	e, err := env.New("podman-host", env.Options{BinaryPath: g.Executable, Version: g.Version})
	if err != nil {
		return nil
	}
	envs := map[string]env.Environment{"podman-host": e}
	defer env.CloseAll(ctx, envs)
	if err := e.Available(ctx); err != nil {
		if _, lookErr := exec.LookPath("podman"); lookErr != nil {
			return nil
		}
		return &hostinfo.Docker{Error: err.Error()}
	}
	return podmanFacts(ctx, envs, false)
}
