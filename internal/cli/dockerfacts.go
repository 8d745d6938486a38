package cli

import (
	"context"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
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
	if d.ServerVersion == "" {
		d.ServerVersion = strings.TrimSpace(info.ServerVersion)
	}
	return d
}
