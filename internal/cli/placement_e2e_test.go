package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/cpuset"
)

func TestPlacementPinsInstancesNativelyAndInContainers(t *testing.T) {
	online := twoOnlineCPUs(t)
	dir, _ := dockerStudy(t, testdata(t, "placement.yaml"), "--settle", "0", "--quiet", "--monitor-interval", "0")
	runs := latestRuns(t, filepath.Join(dir, "boxtax.db"))
	halves, _ := online.Split(2)
	for _, r := range runs {
		got1, got2 := r.Notes["cpus_allowed"], r.Notes["instance2.cpus_allowed"]
		want1, want2 := halves[0].String(), halves[1].String()
		if r.Levels["placement"] == "shared" {
			want1, want2 = online.String(), online.String()
		}
		if got1 != want1 || got2 != want2 {
			t.Errorf("%s %s: instances ran on %q and %q, want %q and %q (settings %v)", r.Env, r.Levels["placement"], got1, got2, want1, want2, r.Settings)
		}
		// Natively as in a container, Go runs one P per CPU the worker may use.
		for i, want := range []string{want1, want2} {
			key := "gomaxprocs"
			if i == 1 {
				key = "instance2.gomaxprocs"
			}
			set, err := cpuset.Parse(want)
			if err != nil {
				t.Fatal(err)
			}
			if got := r.Notes[key]; got != strconv.Itoa(len(set)) {
				t.Errorf("%s %s: instance %d had GOMAXPROCS %q on CPUs %s", r.Env, r.Levels["placement"], i+1, got, want)
			}
		}
	}
}

func TestPlacementThatCannotBeMadeIsRefusedBeforeTheStudy(t *testing.T) {
	dir := t.TempDir()
	spec := "name: p\nenvs: [native]\nworkloads: [cpu.prime]\nfactors:\n  - name: instances\n    levels: [64]\n  - name: placement\n    levels: [dedicated]\n"
	os.WriteFile(filepath.Join(dir, "p.yaml"), []byte(spec), 0o644)
	res := runIn(t, dir, "run", "p.yaml")
	if res.code != ExitUsage || !strings.Contains(res.stderr, "placement dedicated needs a CPU per instance: 64 instances") {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
	absent := "name: p\ncpus: 0-1023\nenvs: [native]\nworkloads: [cpu.prime]\n"
	os.WriteFile(filepath.Join(dir, "a.yaml"), []byte(absent), 0o644)
	res = runIn(t, dir, "run", "a.yaml")
	if res.code != ExitUsage || !strings.Contains(res.stderr, "are not online on this host") {
		t.Errorf("exit %d: %s", res.code, res.stderr)
	}
}
