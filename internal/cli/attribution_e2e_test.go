package cli

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// A study with variants of docker-bridge on the real engine: every variant
// runs with its options (recorded with each run), the disk and network
// workloads work in them, and the report splits the overheads.
func TestAttributionEndToEnd(t *testing.T) {
	testenv.SkipShort(t, "Docker, six environments (about a minute)")
	c := testenv.RequireDocker(t)
	dir := t.TempDir()
	spec := `name: attribution-e2e
repetitions: 2
warmup: 0
envs:
  - native
  - docker-bridge
  - docker-bridge+network=host
  - docker-bridge+storage=bind
  - docker-bridge+storage=bind+seccomp=unconfined+network=host   # not in key order: stored canonically
workloads:
  - {name: disk.rand, params: {duration: 1s, size: 16MiB}}
  - {name: net.rr, params: {duration: 1s}}
`
	path := filepath.Join(dir, "a.yaml")
	testenv.WriteFile(t, path, []byte(spec), 0o644)
	res := runOK(t, dir, "run", path, "--settle", "0")
	const allOff = "docker-bridge+network=host+seccomp=unconfined+storage=bind"
	stdoutSays(t, res, "what the overhead is made of", "storage=bind: storage layer", "network=host: network path", "rest (network=host+seccomp=unconfined+storage=bind)", allOff)
	if left := containersOf(t, c, os.Getpid()); len(left) > 0 {
		t.Errorf("%d containers left behind", len(left))
	}
	// This process's own (the directory names its pid): another program's
	// study, running beside the test, may have its own there now.
	if left, _ := filepath.Glob(filepath.Join(os.TempDir(), fmt.Sprintf("boxtax-storage-%d-*", os.Getpid()))); len(left) > 0 {
		t.Errorf("storage=bind directories left behind: %v", left)
	}

	db := testenv.OpenStore(t, filepath.Join(dir, "boxtax.db"))
	runs, err := db.Runs(context.Background(), 1)
	if err != nil {
		t.Fatal(err)
	}
	envs := map[string]int{}
	for _, r := range runs {
		envs[r.Env]++
		if r.Status != store.RunOK {
			t.Errorf("run %d %s @ %s: %s %s", r.Seq, r.Workload, r.Env, r.Status, r.Reason)
		}
		switch r.Env {
		case allOff:
			if r.Settings["network_mode"] != "host" || r.Settings["seccomp"] != "unconfined" || r.Settings["scratch_storage"] != "bind" ||
				r.Settings["options"] != "network=host+seccomp=unconfined+storage=bind" {
				t.Errorf("all-off run settings: %v", r.Settings)
			}
		case "docker-bridge+storage=bind":
			if r.Settings["network_mode"] != "bridge" || r.Settings["scratch_storage"] != "bind" {
				t.Errorf("storage=bind run settings: %v", r.Settings)
			}
			if r.Workload == "disk.rand" && strings.Contains(r.Notes["fs_warning"], "FUSE") {
				t.Errorf("disk.rand on a bind-mounted directory still wrote to the FUSE layer: %v", r.Notes)
			}
		}
	}
	if len(envs) != 5 || envs[allOff] != 4 {
		t.Errorf("runs by environment: %v", envs)
	}

	var doc struct {
		Attributions []struct {
			Workload, Metric, Env string
			Parts                 []struct{ Option string }
			Rest                  *struct{ Env string }
		} `json:"attributions"`
	}
	decodeReport(t, dir, &doc)
	seen := map[string]bool{}
	for _, a := range doc.Attributions {
		seen[a.Workload] = true
		if a.Env != "docker-bridge" || len(a.Parts) != 2 || a.Rest == nil || a.Rest.Env != allOff {
			t.Errorf("attribution %s %s: %+v", a.Workload, a.Metric, a)
		}
	}
	if !seen["disk.rand"] || !seen["net.rr"] {
		t.Errorf("attributions for %v, want disk.rand and net.rr", seen)
	}
}

// A misspelt option names the valid ones, before anything runs.
func TestEnvOptionErrorsNameTheFix(t *testing.T) {
	dir := t.TempDir()
	res := runIn(t, dir, "run", "--envs", "native,docker-bridge+secomp=unconfined", "--reps", "1")
	if res.code != ExitUsage || !strings.Contains(res.stderr, `unknown option "secomp"; valid options: network, seccomp,`) {
		t.Errorf("exit %d, stderr %q; want the valid options named", res.code, res.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "boxtax.db")); err == nil {
		t.Error("a database was made for a study that cannot start")
	}
}
