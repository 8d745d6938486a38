package tables

import (
	"testing"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/env/lxc"
	"github.com/boxtax/boxtax/internal/env/podman"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

func TestEnginesLine(t *testing.T) {
	docker29 := &docker.EngineFacts{Engine: "Docker Engine", ServerVersion: "29.0.0", APIVersion: "1.52", StorageDriver: "overlayfs"}
	old := &docker.EngineFacts{ServerVersion: "24.0.7", StorageDriver: "overlay2"} // recorded before engines were named
	tests := []struct {
		name string
		d    *docker.EngineFacts
		envs []string
		want string
	}{
		{"engine beside its environments", docker29, []string{"native", "docker-bridge", "docker-host"},
			"docker-bridge, docker-host: Docker Engine 29.0.0, API 1.52, overlayfs"},
		{"old facts", old, []string{"native", "docker-host"}, "docker-host: Docker 24.0.7, overlay2"},
		{"native only", docker29, []string{"native"}, ""},
		{"engine not reached", &docker.EngineFacts{Error: "cannot reach Docker"}, []string{"docker-bridge"}, ""},
		{"no facts", nil, []string{"docker-bridge"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := hostinfo.Host{}
			if tt.d != nil {
				h.Engines = map[string]hostinfo.Engine{"docker": tt.d}
			}
			if got := enginesLine(h, tt.envs); got != tt.want {
				t.Errorf("enginesLine = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestEnginesLineNamesLXC(t *testing.T) {
	h := hostinfo.Host{Engines: map[string]hostinfo.Engine{
		"docker": &docker.EngineFacts{Engine: "Docker Engine", ServerVersion: "20.10.24", APIVersion: "1.41", StorageDriver: "fuse-overlayfs"},
		"lxc":    &lxc.EngineFacts{Version: "5.0.2", Storage: "dir", CgroupVersion: "1"},
	}}
	want := "docker-bridge: Docker Engine 20.10.24, API 1.41, fuse-overlayfs; lxc: LXC 5.0.2, storage dir, cgroup v1"
	if got := enginesLine(h, []string{"native", "docker-bridge", "lxc"}); got != want {
		t.Errorf("enginesLine = %q, want %q", got, want)
	}
	if got := enginesLine(hostinfo.Host{}, []string{"lxc"}); got != "" {
		t.Errorf("no LXC facts: %q", got)
	}
}

func TestEnginesLineNamesPodman(t *testing.T) {
	h := hostinfo.Host{Engines: map[string]hostinfo.Engine{
		"docker":          &docker.EngineFacts{Engine: "Docker Engine", ServerVersion: "20.10.24", APIVersion: "1.41", StorageDriver: "fuse-overlayfs", OCIRuntime: "runc"},
		"podman":          &podman.EngineFacts{EngineFacts: docker.EngineFacts{Engine: "Podman Engine", ServerVersion: "4.3.1", APIVersion: "1.41", StorageDriver: "overlay", OCIRuntime: "runc"}},
		"podman_rootless": &podman.EngineFacts{EngineFacts: docker.EngineFacts{Engine: "Podman Engine", ServerVersion: "4.3.1", APIVersion: "1.41", StorageDriver: "vfs", OCIRuntime: "crun", Rootless: true}},
	}}
	want := "docker-bridge: Docker Engine 20.10.24, API 1.41, fuse-overlayfs; " +
		"podman-bridge, podman-host: Podman Engine 4.3.1, API 1.41, overlay, runtime runc; " +
		"podman-rootless: Podman Engine 4.3.1, API 1.41, vfs, runtime crun, rootless"
	if got := enginesLine(h, []string{"native", "docker-bridge", "podman-bridge", "podman-host", "podman-rootless"}); got != want {
		t.Errorf("enginesLine = %q, want %q", got, want)
	}
}
