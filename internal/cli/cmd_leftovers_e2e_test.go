package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// serverStudy is a native cmd.server study whose server starts a child in
// a session of its own (setsid) that sleeps for a marked number of
// seconds, and whose client takes clientS seconds.
func serverStudy(t *testing.T, dir string, marker int, clientS float64) string {
	t.Helper()
	testenv.RequireTool(t, "python3", "python3")
	testenv.RequireTool(t, "setsid", "util-linux")
	spec := fmt.Sprintf(`name: leftovers
repetitions: 2
warmup: 0
envs: [native]
workloads:
  - name: cmd.server
    params:
      server: sh -c 'setsid sleep %d & exec python3 -m http.server --bind {host} {port}'
      client: python3 -c 'import time, urllib.request; urllib.request.urlopen("http://{addr}/").read(); time.sleep(%g)'
`, marker, clientS)
	path := filepath.Join(dir, "srv.yaml")
	testenv.WriteFile(t, path, []byte(spec), 0o644)
	return path
}

// marked lists the processes running `sleep marker`, and kills them: a
// test leaves nothing either.
func marked(marker int) []int {
	var out []int
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		var pid int
		if err == nil && string(b) == fmt.Sprintf("sleep\x00%d\x00", marker) {
			if _, err := fmt.Sscan(e.Name(), &pid); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// killMarked kills what marked finds once the test ends.
func killMarked(t *testing.T, marker int) {
	t.Cleanup(func() {
		for _, pid := range marked(marker) {
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	})
}

// tmpLeftovers lists what is left in the TMPDIR a run was given.
func tmpLeftovers(t *testing.T, tmp string) []string {
	t.Helper()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		out = append(out, e.Name())
	}
	return out
}

// TestCmdServerLeavesNothing: issue 25 item 20, a native cmd.server run
// left its worker's /tmp/boxtax-* directory, and its server's setsid
// child kept running; after Ctrl-C /tmp/boxtax-client-* was left too.
// Nothing may be left, at a normal end or at Ctrl-C.
func TestCmdServerLeavesNothing(t *testing.T) {
	t.Run("normal end", func(t *testing.T) {
		dir, tmp := t.TempDir(), t.TempDir()
		marker := 3000 + os.Getpid()%1000
		killMarked(t, marker)
		cmd, stderr := startRun(t, dir, []string{"TMPDIR=" + tmp}, serverStudy(t, dir, marker, 0), "--settle", "0", "--monitor-interval", "0")
		if err := cmd.Wait(); err != nil {
			t.Fatalf("run: %v\n%s", err, stderr.String())
		}
		if n := okRuns(t, filepath.Join(dir, "boxtax.db")); n != 2 {
			t.Errorf("%d ok runs, want 2\n%s", n, stderr.String())
		}
		time.Sleep(300 * time.Millisecond)
		if left := tmpLeftovers(t, tmp); len(left) > 0 {
			t.Errorf("left in TMPDIR: %v", left)
		}
		if left := marked(marker); len(left) > 0 {
			t.Errorf("the server's setsid child still runs: pids %v", left)
		}
	})
	t.Run("Ctrl-C", func(t *testing.T) {
		dir, tmp := t.TempDir(), t.TempDir()
		marker := 4000 + os.Getpid()%1000
		killMarked(t, marker)
		cmd, stderr := startRun(t, dir, []string{"TMPDIR=" + tmp}, serverStudy(t, dir, marker, 30), "--settle", "0", "--monitor-interval", "0")
		waitFor(t, 60*time.Second, "the client and the server to run", stderr, func() bool {
			left := tmpLeftovers(t, tmp)
			return len(marked(marker)) > 0 && strings.Contains(strings.Join(left, " "), "boxtax-client-")
		})
		interrupt(t, cmd, stderr)
		time.Sleep(300 * time.Millisecond)
		if left := tmpLeftovers(t, tmp); len(left) > 0 {
			t.Errorf("left in TMPDIR after Ctrl-C: %v", left)
		}
		if left := marked(marker); len(left) > 0 {
			t.Errorf("the server's setsid child still runs after Ctrl-C: pids %v", left)
		}
	})
}
