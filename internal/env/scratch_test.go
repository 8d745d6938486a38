package env

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// TestRemoveScratchLeftovers: issue 42 finding 17, a worker killed with
// its controller left its scratch directory, which clean did not know.
// Those of processes that no longer run go; this process's stays.
func TestRemoveScratchLeftovers(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	ended := exec.Command("true")
	if err := ended.Run(); err != nil {
		t.Fatal(err)
	}
	dead := filepath.Join(os.TempDir(), scratchDirPrefix+strconv.Itoa(ended.Process.Pid)+"-1")
	if err := os.MkdirAll(filepath.Join(dead, "work"), 0o755); err != nil {
		t.Fatal(err)
	}
	live, err := MakeScratchDir()
	if err != nil {
		t.Fatal(err)
	}
	removed, err := RemoveScratchLeftovers()
	if err != nil || len(removed) != 1 || removed[0] != dead {
		t.Errorf("RemoveScratchLeftovers = %v, %v; want [%s]", removed, err, dead)
	}
	if _, err := os.Stat(dead); err == nil {
		t.Errorf("%s of a process that ended is still there", dead)
	}
	if _, err := os.Stat(live); err != nil {
		t.Errorf("the scratch directory of this running process went: %v", err)
	}
}
