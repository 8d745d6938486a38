package cli

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestRunReadsDockerHostFromItsGlobals: run reaches the Docker daemon its
// Globals' Getenv names, not the process environment's (issue 26:
// docker.FromEnv read os.Getenv past the injected one, so a test, or a
// program embedding boxtax, could not point it elsewhere).
func TestRunReadsDockerHostFromItsGlobals(t *testing.T) {
	dir := t.TempDir()
	dead := "unix://" + filepath.Join(dir, "injected-docker.sock")
	res := runWith(t, dir, noTerminal, map[string]string{"DOCKER_HOST": dead}, "run", testdata(t, "tiny.yaml"), "--db", filepath.Join(dir, "b.db"),
		"--envs", "native,docker-host", "--workloads", "cpu.prime", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	if res.code != ExitUsage || !strings.Contains(res.stderr, "environment docker-host is not available") || !strings.Contains(res.stderr, "injected-docker.sock") {
		t.Errorf("exit %d, want a usage error naming the injected DOCKER_HOST %s; stderr:\n%s", res.code, dead, res.stderr)
	}
}
