package docker

import (
	"context"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactsKey implements env.FactTeller: the Docker daemon's facts.
func (d *Env) FactsKey() string { return "docker" }

// Facts implements env.FactTeller: the daemon DOCKER_HOST names, asked, or
// why it cannot be.
func (d *Env) Facts(ctx context.Context) hostinfo.Engine {
	if d.clientErr != nil {
		return &hostinfo.Docker{Error: d.clientErr.Error()}
	}
	return AskEngine(ctx, d.client)
}

// AskEngine asks the engine behind c about itself: which engine, its
// version, the API version negotiated with it, its storage driver and
// cgroups. An engine that cannot be reached is recorded with the reason.
func AskEngine(ctx context.Context, c *docker.Client) *hostinfo.Docker {
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

var _ env.FactTeller = (*Env)(nil)
