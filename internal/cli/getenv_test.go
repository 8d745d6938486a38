package cli

import (
	"bytes"
	"context"
	"io"
	"os"
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
	var out, errb bytes.Buffer
	g := &Globals{Stdout: &out, Stderr: &errb, Version: "test", Executable: boxtaxBin,
		IsTerminal: func(io.Writer) bool { return false },
		Getenv: func(k string) string {
			if k == "DOCKER_HOST" {
				return dead
			}
			return os.Getenv(k)
		}}
	code := Execute(context.Background(), g, []string{"run", testdata(t, "tiny.yaml"), "--db", filepath.Join(dir, "b.db"),
		"--envs", "native,docker-host", "--workloads", "cpu.prime", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0"})
	if code != ExitUsage || !strings.Contains(errb.String(), "environment docker-host is not available") || !strings.Contains(errb.String(), "injected-docker.sock") {
		t.Errorf("exit %d, want a usage error naming the injected DOCKER_HOST %s; stderr:\n%s", code, dead, errb.String())
	}
}
