package docker

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

func init() {
	hostinfo.RegisterEngine("docker", 1, func() hostinfo.Engine { return new(EngineFacts) })
}

// FactsOf are the Docker engine's facts in h (Engines["docker"]), nil when
// the study recorded none: the one engine the report's host lines name.
func FactsOf(h hostinfo.Host) *EngineFacts {
	d, _ := h.Engines["docker"].(*EngineFacts)
	return d
}

// EngineFacts are what the container engine behind the Docker API tells about
// itself
// (Docker Engine, or Podman's Docker-compatible service).
type EngineFacts struct {
	Engine        string `json:"engine,omitempty"` // Docker Engine, Podman Engine
	ServerVersion string `json:"server_version"`
	APIVersion    string `json:"api_version"`                // the Engine API version boxtax negotiated and spoke
	DaemonAPI     string `json:"daemon_api_range,omitempty"` // the versions the daemon serves, e.g. 1.44-1.52
	Host          string `json:"host,omitempty"`             // the daemon's address, e.g. unix:///var/run/docker.sock
	StorageDriver string `json:"storage_driver"`
	CgroupVersion string `json:"cgroup_version"`
	CgroupDriver  string `json:"cgroup_driver"`
	OCIRuntime    string `json:"oci_runtime,omitempty"` // the runtime containers get, e.g. runc, crun
	Rootless      bool   `json:"rootless,omitempty"`
	Error         string `json:"error,omitempty"` // why the engine could not be asked
}

// Name is the engine and its version, e.g. "Docker Engine 20.10.24";
// "Docker <version>" for facts recorded before the engine was named.
func (d *EngineFacts) Name() string {
	if d == nil || d.ServerVersion == "" {
		return ""
	}
	engine := d.Engine
	if engine == "" {
		engine = "Docker"
	}
	return engine + " " + d.ServerVersion
}

// Summary is the engine, the API version spoken and the storage driver,
// e.g. "Docker Engine 29.0.0, API 1.52, overlayfs"; empty when unknown.
func (d *EngineFacts) Summary() string { return d.SummaryWith(false) }

// SummaryWith is Summary, with the OCI runtime when runtime is set.
func (d *EngineFacts) SummaryWith(runtime bool) string {
	if d.Name() == "" {
		return ""
	}
	parts := []string{d.Name()}
	if d.APIVersion != "" {
		parts = append(parts, "API "+d.APIVersion)
	}
	if d.StorageDriver != "" {
		parts = append(parts, d.StorageDriver)
	}
	if runtime && d.OCIRuntime != "" {
		parts = append(parts, "runtime "+d.OCIRuntime)
	}
	if d.Rootless {
		parts = append(parts, "rootless")
	}
	return strings.Join(parts, ", ")
}

// Detail is the engine at its address with the API versions, storage and
// cgroups, or why it could not be asked.
func (d *EngineFacts) Detail() string {
	if d.Error != "" {
		return "unavailable: " + d.Error
	}
	return fmt.Sprintf("%s at %s, API %s (daemon serves %s), storage %s, cgroup v%s %s",
		d.Name(), d.Host, d.APIVersion, d.DaemonAPI, d.StorageDriver, d.CgroupVersion, d.CgroupDriver)
}

// Facts are the engine with its API version, its storage driver and its
// cgroups, or why it was not asked.
func (d *EngineFacts) Facts() []hostinfo.Fact {
	if d.Error != "" {
		return []hostinfo.Fact{{Name: "Docker", Value: "not asked: " + d.Error}}
	}
	return []hostinfo.Fact{{Name: "container engine", Value: fmt.Sprintf("%s (API %s)", d.Name(), d.APIVersion)},
		{Name: "storage driver", Value: d.StorageDriver}, {Name: "cgroups", Value: strings.Trim(d.CgroupVersion+" "+d.CgroupDriver, " ")}}
}

// FactsKey implements env.FactTeller: the Docker daemon's facts.
func (d *Env) FactsKey() string { return "docker" }

// Facts implements env.FactTeller: the daemon DOCKER_HOST names, asked, or
// why it cannot be.
func (d *Env) Facts(ctx context.Context) hostinfo.Engine {
	if d.clientErr != nil {
		return &EngineFacts{Error: d.clientErr.Error()}
	}
	return AskEngine(ctx, d.client)
}

// AskEngine asks the engine behind c about itself: which engine, its
// version, the API version negotiated with it, its storage driver and
// cgroups. An engine that cannot be reached is recorded with the reason.
func AskEngine(ctx context.Context, c *docker.Client) *EngineFacts {
	d := &EngineFacts{Host: c.Host()}
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
