package report

import (
	"testing"

	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/env/lxc"
	"github.com/boxtax/boxtax/internal/env/podman"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// TestHostFactsNameEveryEngine: the HTML table of host facts has a row for
// each engine the study recorded, Docker's as before.
func TestHostFactsNameEveryEngine(t *testing.T) {
	h := hostinfo.Host{Engines: map[string]hostinfo.Engine{
		"docker":          &docker.EngineFacts{Engine: "Docker Engine", ServerVersion: "20.10.24", APIVersion: "1.41", StorageDriver: "overlay2", CgroupVersion: "2", CgroupDriver: "systemd"},
		"podman_rootless": &podman.EngineFacts{EngineFacts: docker.EngineFacts{Error: "no subuid range", Rootless: true}},
		"lxc":             &lxc.EngineFacts{Version: "5.0.2", Storage: "dir", CgroupVersion: "1"},
	}}
	facts, _ := HostFacts(h)
	got := map[string]string{}
	for _, f := range facts {
		got[f.Name] = f.Value
	}
	want := map[string]string{
		"container engine": "Docker Engine 20.10.24 (API 1.41)", "storage driver": "overlay2", "cgroups": "2 systemd",
		"rootless Podman service": "not asked: no subuid range", "LXC": "LXC 5.0.2, storage dir, cgroup v1",
	}
	for name, value := range want {
		if got[name] != value {
			t.Errorf("host fact %q = %q, want %q", name, got[name], value)
		}
	}
}
