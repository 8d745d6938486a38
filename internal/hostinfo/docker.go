package hostinfo

import (
	"fmt"
	"strings"
)

// Docker holds facts about the container engine behind the Docker API
// (Docker Engine, or Podman's Docker-compatible service).
type Docker struct {
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
func (d *Docker) Name() string {
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
func (d *Docker) Summary() string { return d.summary(false) }

func (d *Docker) summary(runtime bool) string {
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
func (d *Docker) Detail() string {
	if d.Error != "" {
		return "unavailable: " + d.Error
	}
	return fmt.Sprintf("%s at %s, API %s (daemon serves %s), storage %s, cgroup v%s %s",
		d.Name(), d.Host, d.APIVersion, d.DaemonAPI, d.StorageDriver, d.CgroupVersion, d.CgroupDriver)
}

// Facts are the engine with its API version, its storage driver and its
// cgroups, or why it was not asked.
func (d *Docker) Facts() []Fact {
	if d.Error != "" {
		return []Fact{{"Docker", "not asked: " + d.Error}}
	}
	return []Fact{{"container engine", fmt.Sprintf("%s (API %s)", d.Name(), d.APIVersion)},
		{"storage driver", d.StorageDriver}, {"cgroups", strings.Trim(d.CgroupVersion+" "+d.CgroupDriver, " ")}}
}

// Podman holds facts about a Podman service, asked through its
// Docker-compatible API: Docker's facts (and JSON), told with the OCI
// runtime, which Podman picks per host (crun or runc).
type Podman struct {
	Docker
}

// Summary is Docker's with the OCI runtime, e.g. "Podman Engine 4.3.1,
// API 1.41, overlay, runtime crun"; empty when unknown.
func (p *Podman) Summary() string { return p.summary(true) }

// Detail is the service at its address with the API version, storage,
// runtime and cgroups, or why it could not be asked.
func (p *Podman) Detail() string {
	d := &p.Docker
	if d.Error != "" {
		return "unavailable: " + d.Error
	}
	rootless := ""
	if d.Rootless {
		rootless = ", rootless"
	}
	return fmt.Sprintf("%s at %s, API %s, storage %s, runtime %s, cgroup v%s %s%s",
		d.Name(), d.Host, d.APIVersion, d.StorageDriver, d.OCIRuntime, d.CgroupVersion, d.CgroupDriver, rootless)
}

// Facts are the service in a row (beside Docker's, which has rows of its
// own), or why it was not asked.
func (p *Podman) Facts() []Fact {
	name := "Podman service"
	if p.Rootless {
		name = "rootless Podman service"
	}
	if p.Error != "" {
		return []Fact{{name, "not asked: " + p.Error}}
	}
	return []Fact{{name, p.Summary() + ", cgroups " + strings.Trim(p.CgroupVersion+" "+p.CgroupDriver, " ")}}
}
