package podman

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
)

// TestRemovePodmanLeftovers: issue 42 finding 6, the Podman service of a
// boxtax killed with SIGKILL (here a stand-in process whose command line
// names the service's socket, as podman system service's does) outlived
// it with its directory. clean stops it and removes the directory; the
// service of a controller that still runs stays.
func TestRemovePodmanLeftovers(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	start := func(controller string) (string, *exec.Cmd) {
		dir, err := os.MkdirTemp("", podmanDirPrefix)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, podmanControllerFile), []byte(controller+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("sh", "-c", "while :; do sleep 1; done", "podman", "unix://"+dir+"/podman.sock")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return dir, cmd
	}
	deadDir, dead := start(envtest.DeadController)
	liveDir, live := start(env.ThisController)
	ended := make(chan struct{})
	go func() { dead.Wait(); close(ended) }()
	done, err := RemoveLeftovers(context.Background(), os.Getenv)
	// The stand-in shell forks for each sleep, and a child caught between
	// fork and exec has the shell's command line: one or two processes.
	if err != nil || len(done) != 1 || !strings.Contains(done[0], deadDir) ||
		!(strings.Contains(done[0], "with 1 service process(es)") || strings.Contains(done[0], "with 2 service process(es)")) {
		t.Errorf("RemoveLeftovers = %q, %v; want %s named with its process", done, err, deadDir)
	}
	select {
	case <-ended:
	case <-time.After(15 * time.Second):
		t.Errorf("the killed controller's service (pid %d) still runs", dead.Process.Pid)
	}
	if _, err := os.Stat(deadDir); err == nil {
		t.Errorf("%s is still there", deadDir)
	}
	if _, err := os.Stat(liveDir); err != nil {
		t.Errorf("the running controller's service directory went: %v", err)
	}
	if err := live.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("the running controller's service was stopped: %v", err)
	}
}
