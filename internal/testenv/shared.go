package testenv

import (
	"os"
	"testing"
)

// SharedDir makes a directory other users may reach, with mode perm,
// where t.TempDir's lies inside one only the test's user may enter. It is
// removed when the test ends.
func SharedDir(tb testing.TB, perm os.FileMode) string {
	tb.Helper()
	dir := SocketDir(tb) // a directory of its own in os.TempDir, removed at the end
	if err := os.Chmod(dir, perm); err != nil {
		tb.Fatal(err)
	}
	return dir
}
