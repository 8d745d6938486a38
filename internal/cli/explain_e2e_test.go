package cli

import (
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestRunExplainMeasuresTheVariantsOfACommand (issue 28 item 6): --explain
// runs the user's own program (dd writing and syncing a file in the run's
// scratch directory) in docker-bridge and in its variants with the network
// path, seccomp and the layered storage switched off one at a time and
// all at once, against the real Docker engine; the report splits the
// container's overhead over them, and report.Advise reads that split.
func TestRunExplainMeasuresTheVariantsOfACommand(t *testing.T) {
	dir, res := dockerStudy(t, "--cmd", "dd if=/dev/zero of=explain.bin bs=1M count=32 conv=fsync", "--explain",
		"--envs", "native,docker-bridge", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	variants := []string{"docker-bridge+network=host", "docker-bridge+seccomp=unconfined", "docker-bridge+storage=bind",
		"docker-bridge+network=host+seccomp=unconfined+storage=bind"}
	stdoutSays(t, res, append([]string{"what the overhead is made of", "cmd, wall s, docker-bridge:",
		"network=host: network path", "seccomp=unconfined: seccomp system-call filter", "storage=bind: storage layer"}, variants...)...)
	path := filepath.Join(dir, "boxtax.db")
	_, runs, _ := testenv.Stored(t, path)
	perEnv := map[string]int{}
	for _, r := range runs {
		if r.Status != store.RunOK {
			t.Errorf("run %d in %s: %s %s", r.Seq, r.Env, r.Status, r.Reason)
		}
		perEnv[r.Env]++
	}
	for _, e := range append([]string{"native", "docker-bridge"}, variants...) {
		if perEnv[e] != 2 {
			t.Errorf("%d runs in %s, want 2 (runs per environment: %v)", perEnv[e], e, perEnv)
		}
	}
	_, rep := storedReport(t, path, 1)
	parts := 0
	for _, a := range rep.Attributions {
		if a.Metric == "wall_s" && a.Env == "docker-bridge" {
			parts = len(a.Parts)
			if a.Rest == nil {
				t.Errorf("wall s: no rest (all three off)")
			}
		}
	}
	if parts != 3 {
		t.Errorf("wall s in docker-bridge splits into %d parts, want 3", parts)
	}
	// Whether a cost is decided in 2 rounds depends on the host; what is
	// advised must come from the variants measured.
	for _, a := range report.Advise(rep) {
		t.Logf("advice: %s %s %+.1f%% in %s; %s removes %.1f points [%.1f, %.1f]", a.Workload, a.Label, a.CostPct, a.Env, a.Option, a.RemovesPts, a.CI95[0], a.CI95[1])
		if perEnv[a.Variant] == 0 || a.RemovesPts <= 0 {
			t.Errorf("advice %+v names a variant not run or removes nothing", a)
		}
	}
}
