package engines

import (
	"context"
	"encoding/json"
	"slices"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/testenv"
)

// oldHost is host facts as studies stored them before the engines' facts
// were keyed (hostinfo.Host had a field per engine), every member present.
const oldHost = `{"hostname":"pi4","os":"linux","arch":"arm64","cpu_model":"Cortex-A72","cpus":4,"mem_total_bytes":4000000000,` +
	`"kernel_release":"6.1.0-rpi","kernel_version":"#1 SMP PREEMPT","preemption":"PREEMPT","realtime_kernel":false,` +
	`"cpu_governor":"ondemand","virtualized":"yes",` +
	`"docker":{"server_version":"24.0.7","api_version":"1.43","storage_driver":"overlay2","cgroup_version":"2","cgroup_driver":"systemd"},` +
	`"podman":{"engine":"Podman Engine","server_version":"4.3.1","api_version":"1.41","host":"unix:///run/podman/podman.sock","storage_driver":"overlay","cgroup_version":"2","cgroup_driver":"systemd","oci_runtime":"crun"},` +
	`"podman_rootless":{"engine":"Podman Engine","server_version":"4.3.1","api_version":"1.41","storage_driver":"vfs","cgroup_version":"2","cgroup_driver":"cgroupfs","oci_runtime":"crun","rootless":true},` +
	`"lxc":{"version":"5.0.2","cgroup_version":"2","storage":"dir"},` +
	`"boxtax_version":"v0.3.0","collected_at":"2025-06-01T10:00:00Z","device":"pi4-a","machine_id":"abc","unavailable_envs":{"docker-host":"no"}}`

// TestOldHostRecordsReadBack: a record of the old format reads back with
// each engine's facts under its key, as its environments find them, and is
// written again byte for byte.
func TestOldHostRecordsReadBack(t *testing.T) {
	h := hostinfo.Parse(oldHost)
	want := map[string]string{
		"docker-bridge+seccomp=unconfined": "Docker 24.0.7, API 1.43, overlay2",
		"podman-host":                      "Podman Engine 4.3.1, API 1.41, overlay, runtime crun",
		"podman-rootless":                  "Podman Engine 4.3.1, API 1.41, vfs, runtime crun, rootless",
		"lxc":                              "LXC 5.0.2, storage dir, cgroup v2",
	}
	for name, summary := range want {
		e := h.Engines[FactsKey(name)]
		if e == nil || e.Summary() != summary {
			t.Errorf("%s: engine facts %#v, want %q", name, e, summary)
		}
	}
	if d := docker.FactsOf(h); d == nil || d.StorageDriver != "overlay2" {
		t.Errorf("DockerEngine: %+v", d)
	}
	b, err := json.Marshal(h)
	if err != nil {
		t.Fatal(err)
	}
	if string(b) != oldHost {
		t.Errorf("written again:\n%s\nwant\n%s", b, oldHost)
	}
}

func TestFactsKey(t *testing.T) {
	for name, want := range map[string]string{
		"docker-bridge": "docker", "docker-host+network=none": "docker", "podman-bridge": "podman", "podman-host": "podman",
		"podman-rootless": "podman_rootless", "lxc+cpus=1": "lxc", "native": "", "nosuch": "",
	} {
		if got := FactsKey(name); got != want {
			t.Errorf("FactsKey(%q) = %q, want %q", name, got, want)
		}
	}
	if !UsesEngine([]string{"native", "docker-host+seccomp=unconfined"}, "docker") || UsesEngine([]string{"native", "podman-host"}, "docker") {
		t.Error("UsesEngine does not tell which environments run in Docker")
	}
	for _, key := range hostinfo.EngineKeys() {
		if !UsesEngine(Names(), key) {
			t.Errorf("engine facts %q are registered but no environment records them", key)
		}
	}
}

// TestEngineFactsAskTheDockerEngine asks the engine here, and an address
// where none answers, which is recorded with the reason.
func TestEngineFactsAskTheDockerEngine(t *testing.T) {
	c := testenv.DockerIntegration(t)
	ctx := context.Background()
	eng, err := c.Engine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := EngineFacts(ctx, nil, []string{"native", "docker-host"}, env.Options{})["docker"].(*docker.EngineFacts)
	if !ok || d.Error != "" || d.ServerVersion != eng.Version || d.StorageDriver == "" || d.CgroupVersion == "" {
		t.Errorf("docker facts %+v, want version %s, a storage driver and cgroups", d, eng.Version)
	}
	t.Setenv("DOCKER_HOST", "unix://"+t.TempDir()+"/none.sock")
	d, ok = EngineFacts(ctx, nil, []string{"docker-bridge"}, env.Options{})["docker"].(*docker.EngineFacts)
	if !ok || d.Error == "" || d.ServerVersion != "" {
		t.Errorf("docker facts where no engine answers: %+v, want the reason", d)
	}
}

// UsesEngine tells whether any of the named environments runs in the
// engine whose facts are recorded under key (e.g. "docker").
func UsesEngine(names []string, key string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return FactsKey(n) == key })
}
