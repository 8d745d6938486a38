package network

import (
	"context"
	"net"
	"runtime"
	"testing"
)

// TestStreamSocketQuietOnlyWithAPEach: a stream's socket is quiet only when
// every stream has a P of its own and the other side is in another process;
// otherwise a quiet stream waiting would hold the P that another stream, or
// the other side in this process, needs.
func TestStreamSocketQuietOnlyWithAPEach(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	inProcess := context.WithValue(context.Background(), inProcessKey{}, true)
	for _, c := range []struct {
		name    string
		ctx     context.Context
		streams int
		quiet   bool
	}{
		{"one stream, one P, the other side elsewhere", context.Background(), 1, true},
		{"two streams, one P", context.Background(), 2, false},
		{"one stream, both sides in this process", inProcess, 1, false},
	} {
		conn, err := net.Dial("tcp4", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		sock, err := streamSocket(c.ctx, conn.(*net.TCPConn), c.streams)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if sock.IsQuiet() != c.quiet {
			t.Errorf("%s: quiet %v, want %v", c.name, sock.IsQuiet(), c.quiet)
		}
		sock.Close()
		conn.Close()
	}
}
