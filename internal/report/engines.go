package report

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// engineFor names the container engine that ran an environment, with its
// version, the Engine API version spoken and the storage driver, e.g.
// "Docker Engine 29.0.0, API 1.52, overlayfs"; empty for an environment
// that runs no engine (native) or whose engine facts were not recorded.
func engineFor(h hostinfo.Host, env string) string {
	var d *hostinfo.Docker
	env, _, _ = strings.Cut(env, "+") // its options do not change the engine
	switch {
	case strings.HasPrefix(env, "docker"):
		d = h.Docker
	case env == "podman-rootless":
		d = h.PodmanRootless
	case strings.HasPrefix(env, "podman"):
		d = h.Podman
	case env == "lxc":
		if h.LXC.Name() == "" {
			return ""
		}
		parts := []string{h.LXC.Name()}
		if h.LXC.Storage != "" {
			parts = append(parts, "storage "+h.LXC.Storage)
		}
		if h.LXC.CgroupVersion != "" {
			parts = append(parts, "cgroup v"+h.LXC.CgroupVersion)
		}
		return strings.Join(parts, ", ")
	}
	if d == nil || d.Name() == "" {
		return ""
	}
	parts := []string{d.Name()}
	if d.APIVersion != "" {
		parts = append(parts, "API "+d.APIVersion)
	}
	if d.StorageDriver != "" {
		parts = append(parts, d.StorageDriver)
	}
	if d.OCIRuntime != "" && strings.HasPrefix(env, "podman") {
		parts = append(parts, "runtime "+d.OCIRuntime)
	}
	if d.Rootless {
		parts = append(parts, "rootless")
	}
	return strings.Join(parts, ", ")
}

// enginesLine names the engine beside each container environment of the
// study: "docker-bridge, docker-host: Docker Engine 20.10.24, API 1.41,
// fuse-overlayfs"; empty when no environment ran in an engine.
func enginesLine(h hostinfo.Host, envs []string) string {
	var order []string
	byEngine := map[string][]string{}
	for _, e := range envs {
		eng := engineFor(h, e)
		if eng == "" {
			continue
		}
		if _, ok := byEngine[eng]; !ok {
			order = append(order, eng)
		}
		byEngine[eng] = append(byEngine[eng], e)
	}
	var parts []string
	for _, eng := range order {
		parts = append(parts, fmt.Sprintf("%s: %s", strings.Join(byEngine[eng], ", "), eng))
	}
	return strings.Join(parts, "; ")
}
