package testenv

import (
	"net"
	"testing"
)

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
