package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// Helpers for the tests that run boxtax as another user: a real
// unprivileged process (setpriv) that needs no account.

// nobodyUID is user nobody's uid and gid.
const nobodyUID = 65534

// asUser runs the boxtax binary as uid, in dir (see userCommand).
func asUser(t *testing.T, uid int, dir string, args ...string) (string, error) {
	t.Helper()
	out, err := userCommand(t, uid, dir, args...).CombinedOutput()
	return string(out), err
}

// userCommand is the boxtax binary as uid, in dir (made by sharedDir,
// which holds a copy of the binary every user may run: the worker is the
// same binary, started again by its path).
func userCommand(t *testing.T, uid int, dir string, args ...string) *exec.Cmd {
	t.Helper()
	return asUID(t, uid, dir, filepath.Join(dir, "bin", "boxtax"), args...)
}

// asUID is the program bin (the boxtax binary or a copy of it) run as the
// user and group uid without supplementary groups, in dir.
func asUID(t *testing.T, uid int, dir, bin string, args ...string) *exec.Cmd {
	t.Helper()
	setpriv := testenv.RequireTool(t, "setpriv", "util-linux")
	id := strconv.Itoa(uid)
	cmd := exec.Command(setpriv, append([]string{"--reuid=" + id, "--regid=" + id, "--clear-groups", bin}, args...)...)
	cmd.Dir = dir
	return cmd
}

// sharedDir is a directory every user may write, removed when the test
// ends, with a copy of the binary in bin.
func sharedDir(t *testing.T) string {
	t.Helper()
	dir := testenv.SharedDir(t, 0o777)
	if err := os.Mkdir(filepath.Join(dir, "bin"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyExecutable(t, boxtaxBin, filepath.Join(dir, "bin", "boxtax"))
	return dir
}
