package testenv

import (
	"net"
	"os"
	"testing"
)

// Scratch resources a test borrows from the host: a port and a directory
// for sockets.

// FreePort returns a TCP port free on the host's loopback now, for a test
// that starts a server on a port of its choosing.
func FreePort(tb testing.TB) int {
	tb.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// SocketDir makes a directory whose path is short enough for a unix
// socket in it (at most 107 bytes), which t.TempDir does not promise. It
// is removed when the test ends. (internal/docker's own tests keep a copy,
// shortTempDir: they cannot import testenv, which imports docker.)
func SocketDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "bxsock")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}
