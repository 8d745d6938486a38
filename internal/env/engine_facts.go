package env

import (
	"context"
	"os/exec"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactsKey implements FactTeller: the Docker daemon's facts.
func (d *dockerEnv) FactsKey() string { return "docker" }

// Facts implements FactTeller: the daemon DOCKER_HOST names, asked, or
// why it cannot be.
func (d *dockerEnv) Facts(ctx context.Context) hostinfo.Engine {
	if d.clientErr != nil {
		return &hostinfo.Docker{Error: d.clientErr.Error()}
	}
	return askEngine(ctx, d.client)
}

// FactsKey implements FactTeller: the Podman service's facts, the
// rootless one's apart.
func (p *podmanEnv) FactsKey() string {
	if p.rootless {
		return "podman_rootless"
	}
	return "podman"
}

// Facts implements FactTeller: the Podman service found or started for
// the environment, asked; why it could not be found or started where
// Podman is installed; nil before Available or where Podman is not.
func (p *podmanEnv) Facts(ctx context.Context) hostinfo.Engine {
	if c := p.Client(); c != nil {
		d := askEngine(ctx, c)
		d.Host = p.ServiceOrigin()
		if p.opts.Variant["runtime"] != "" { // this service's runtime is one of several
			d.OCIRuntime = "one Podman service per runtime option; each run records its oci_runtime"
		}
		return &hostinfo.Podman{Docker: *d}
	}
	p.mu.Lock()
	openErr := p.openErr
	p.mu.Unlock()
	if _, err := exec.LookPath("podman"); openErr == nil || err != nil {
		return nil
	}
	return &hostinfo.Podman{Docker: hostinfo.Docker{Error: openErr.Error(), Rootless: p.rootless}}
}

// FactsKey implements FactTeller: LXC's tools' facts.
func (l *lxcEnv) FactsKey() string { return "lxc" }

// Facts implements FactTeller: LXC's version, storage and cgroups; nil
// where LXC is not installed.
func (l *lxcEnv) Facts(ctx context.Context) hostinfo.Engine {
	if _, err := exec.LookPath("lxc-execute"); err != nil {
		return nil
	}
	return hostinfo.CollectLXC(ctx)
}

// askEngine asks the engine behind c about itself: which engine, its
// version, the API version negotiated with it, its storage driver and
// cgroups. An engine that cannot be reached is recorded with the reason.
func askEngine(ctx context.Context, c *docker.Client) *hostinfo.Docker {
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

var (
	_ FactTeller = (*dockerEnv)(nil)
	_ FactTeller = (*podmanEnv)(nil)
	_ FactTeller = (*lxcEnv)(nil)
)
