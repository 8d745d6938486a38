package net

import (
	"net"
	"testing"
)

// The UDP echo answers without allocating: a collection in the middle of a
// round trip is what a C echo server never pays.
func TestUDPEchoAllocatesNothing(t *testing.T) {
	srvConn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer srvConn.Close()
	cliConn, err := net.DialUDP("udp4", nil, srvConn.LocalAddr().(*net.UDPAddr))
	if err != nil {
		t.Fatal(err)
	}
	defer cliConn.Close()
	srv, err := blocking(srvConn)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.close()
	cli, err := blocking(cliConn)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.close()
	req, buf, resp := []byte{7}, make([]byte, 64), make([]byte, 64)
	var from peer
	var failed error
	echo := func() {
		if err := cli.write(req); err != nil {
			failed = err
			return
		}
		k, err := srv.recvFrom(buf, &from)
		if err != nil {
			failed = err
			return
		}
		if err := srv.sendTo(buf[:k], &from); err != nil {
			failed = err
			return
		}
		if n, err := cli.read(resp); err != nil || n != 1 || resp[0] != 7 {
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
