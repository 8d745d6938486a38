package cli

import (
	"context"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// dockerFacts asks the Docker engine about itself; an engine that cannot be
// reached is recorded with the reason.
func dockerFacts(ctx context.Context) *hostinfo.Docker {
	c, err := docker.FromEnv()
	if err != nil {
		return &hostinfo.Docker{Error: err.Error()}
	}
	if err := c.Ping(ctx); err != nil {
		return &hostinfo.Docker{Error: err.Error()}
	}
	d := &hostinfo.Docker{}
	if v, err := c.Version(ctx); err == nil {
		d.ServerVersion, d.APIVersion = v.Version, v.APIVersion
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
