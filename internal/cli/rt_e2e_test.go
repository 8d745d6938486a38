package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// rtSpec is a short rt.periodic study natively and in docker-host.
const rtSpec = `name: rt-e2e
repetitions: 1
warmup: 0
envs: [native, docker-host]
workloads:
  - name: rt.periodic
    params: {duration: 2s}
`

// TestRealtimeNativeAndDocker runs rt.periodic through the real CLI and
// runner at SCHED_FIFO natively and in a container, and checks that every
// slice was stored and that the container got the capabilities the task
// needs and was not privileged.
func TestRealtimeNativeAndDocker(t *testing.T) {
	c := testenv.RequireDocker(t)
	testenv.RequireRoot(t, "SCHED_FIFO natively")
	ensureDockerRealtimeBudget(t)
	dir := t.TempDir()
	spec := filepath.Join(dir, "rt.yaml")
	testenv.WriteFile(t, spec, []byte(rtSpec), 0o644)

	// Watch this controller's containers while the study runs.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var mu sync.Mutex
	inspected := map[string]containerFacts{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		for ctx.Err() == nil {
			for _, ct := range containersOf(t, c, os.Getpid()) {
				mu.Lock()
				_, seen := inspected[ct.ID]
				mu.Unlock()
				if seen {
					continue
				}
				if f, err := inspectHostConfig(ctx, ct.ID); err == nil {
					mu.Lock()
					inspected[ct.ID] = f
					mu.Unlock()
				}
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	res := runIn(t, dir, "run", spec, "--settle", "0", "--db", filepath.Join(dir, "rt.db"))
	cancel()
	wg.Wait()
	if res.code != ExitOK {
		t.Fatalf("run: exit %d\nstderr: %s\nstdout: %s", res.code, res.stderr, res.stdout)
	}

	db := testenv.OpenStore(t, filepath.Join(dir, "rt.db"))
	runs, err := db.Runs(context.Background(), 1)
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs %v %v", runs, err)
	}
	for _, r := range runs {
		if r.Status != store.RunOK || r.Notes["policy"] != "fifo 49" {
			t.Errorf("%s: status %s (%s), policy %q", r.Env, r.Status, r.Reason, r.Notes["policy"])
		}
		for _, name := range []string{"oh1_ns", "work_ns", "oh2_ns", "sleep_ns", "latency_ns"} {
			s, err := db.ReadSeries(context.Background(), r.ID, name)
			if err != nil || len(s.Values) != 200 || s.Unit != "ns" {
				t.Errorf("%s: series %s has %d values (%q), want 200 slices in ns: %v", r.Env, name, len(s.Values), s.Unit, err)
			}
		}
		if r.Env == "docker-host" {
			caps := r.Settings["cap_add"]
			if !strings.Contains(caps, "SYS_NICE") || !strings.Contains(caps, "IPC_LOCK") {
				t.Errorf("container capabilities %q, want SYS_NICE and IPC_LOCK", caps)
			}
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(inspected) != 1 {
		t.Fatalf("inspected %d containers while the study ran, want the one docker-host run", len(inspected))
	}
	for id, f := range inspected {
		if f.Privileged || !slices.Contains(f.CapAdd, "SYS_NICE") {
			t.Errorf("container %.12s: privileged %v, capabilities %v", id, f.Privileged, f.CapAdd)
		}
	}

	// The analysis reads the stored series.
	an := runIn(t, dir, "analyze", "--db", filepath.Join(dir, "rt.db"), "--format", "json")
	if an.code != ExitOK || !strings.Contains(an.stdout, `"observation": "slice"`) {
		t.Errorf("analyze: exit %d\n%s\n%s", an.code, an.stderr, an.stdout)
	}
}

// containerFacts is what the test reads of a container's host config.
type containerFacts struct {
	Privileged bool
	CapAdd     []string
}

// inspectHostConfig asks the engine for a container's HostConfig, the
// Privileged flag included (the docker package does not read it).
func inspectHostConfig(ctx context.Context, id string) (containerFacts, error) {
	host := os.Getenv("DOCKER_HOST")
	base, client := "http://docker", &http.Client{Timeout: 5 * time.Second}
	switch {
	case host == "" || strings.HasPrefix(host, "unix://"):
		sock := strings.TrimPrefix(host, "unix://")
		if sock == "" {
			sock = "/var/run/docker.sock"
		}
		client.Transport = &http.Transport{DialContext: func(ctx context.Context, _, _ string) (net.Conn, error) {
			return (&net.Dialer{}).DialContext(ctx, "unix", sock)
		}}
	case strings.HasPrefix(host, "tcp://"):
		base = "http://" + strings.TrimPrefix(host, "tcp://")
	default:
		return containerFacts{}, fmt.Errorf("DOCKER_HOST %s", host)
	}
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/containers/"+id+"/json", nil)
	resp, err := client.Do(req)
	if err != nil {
		return containerFacts{}, err
	}
	defer resp.Body.Close()
	var ct struct{ HostConfig containerFacts }
	if resp.StatusCode != http.StatusOK {
		return containerFacts{}, fmt.Errorf("inspect: %s", resp.Status)
	}
	return ct.HostConfig, json.NewDecoder(resp.Body).Decode(&ct)
}

// ensureDockerRealtimeBudget gives Docker's cgroup a real-time budget on a
// kernel with CONFIG_RT_GROUP_SCHED (cgroup v1), where a fresh cgroup has
// none, as dockerd --cpu-rt-runtime would (docs/rt.md).
func ensureDockerRealtimeBudget(t *testing.T) {
	t.Helper()
	const path = "/sys/fs/cgroup/cpu/docker/cpu.rt_runtime_us"
	b, err := os.ReadFile(path)
	if err != nil || strings.TrimSpace(string(b)) != "0" {
		return // no RT group scheduling here, or a budget already
	}
	if err := os.WriteFile(path, []byte("950000"), 0o644); err != nil {
		t.Fatalf("Docker's cgroup has no real-time budget and setting one failed: %v; start dockerd with --cpu-rt-runtime=950000", err)
	}
	t.Logf("gave Docker's cgroup a real-time budget: 950000 us/s in %s", path)
}
