package sockfd

import (
	"errors"
	"io"
	"net"
	"runtime"
	"testing"
	"time"
)

// udpPair opens a UDP socket on loopback and a client connected to it,
// both closed when the test ends.
func udpPair(t *testing.T) (srv, cli *net.UDPConn) {
	t.Helper()
	srv, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	cli, err = net.DialUDP("udp4", nil, srv.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return srv, cli
}

// The UDP echo answers without allocating: a collection in the middle of a
// round trip is what a C echo server never pays.
func TestUDPEchoAllocatesNothing(t *testing.T) {
	srvConn, cliConn := udpPair(t)
	srv, err := Blocking(srvConn)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	cli, err := Blocking(cliConn)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	req, buf, resp := []byte{7}, make([]byte, 64), make([]byte, 64)
	var from Peer
	var failed error
	echo := func() {
		if _, err := cli.Write(req); err != nil {
			failed = err
			return
		}
		k, err := srv.RecvFrom(buf, &from)
		if err != nil {
			failed = err
			return
		}
		if err := srv.SendTo(buf[:k], &from); err != nil {
			failed = err
			return
		}
		if n, err := cli.Read(resp); err != nil || n != 1 || resp[0] != 7 {
			failed = err
		}
	}
	echo()
	if failed != nil {
		t.Fatal(failed)
	}
	if allocs := testing.AllocsPerRun(100, echo); allocs != 0 || failed != nil {
		t.Errorf("a round trip allocates %.1f times (%v)", allocs, failed)
	}
}

// A quiet socket's read keeps its own timeout although the kernel's is a
// slice of it, and a read blocked with the process's only P still lets
// another goroutine run and interrupt it.
func TestQuietReadTimesOutAndIsInterrupted(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	_, cliConn := udpPair(t)
	cli, err := Blocking(cliConn)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	if err := cli.Quiet(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	if err := cli.SetReadTimeout(3 * QuietSlice); err != nil {
		t.Fatal(err)
	}
	var readErr error
	var took time.Duration
	t0 := time.Now()
	_, readErr = cli.Read(buf)
	took = time.Since(t0)
	// At least the timeout; later on a busy machine (the bound only catches
	// a read that does not time out).
	if !errors.Is(readErr, ErrTimeout) || took < 2*QuietSlice || took > 30*time.Second {
		t.Errorf("a read with a timeout of %v ended after %v with %v, want a timeout", 3*QuietSlice, took, readErr)
	}

	if err := cli.SetReadTimeout(0); err != nil {
		t.Fatal(err)
	}
	time.AfterFunc(50*time.Millisecond, cli.Interrupt)
	t0 = time.Now()
	_, readErr = cli.Read(buf)
	took = time.Since(t0)
	if !errors.Is(readErr, io.EOF) || took > 30*time.Second {
		t.Errorf("an interrupted read ended after %v with %v, want EOF", took, readErr)
	}
}
