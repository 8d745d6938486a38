package testenv

import (
	"os"
	"testing"
)

// SocketDir makes a directory whose path is short enough for a unix
// socket in it (at most 107 bytes), which t.TempDir does not promise. It
// is removed when the test ends.
func SocketDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "bxsock")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
