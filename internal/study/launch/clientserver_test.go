package launch

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
)

func TestTakePortHandsOutDistinctFreePorts(t *testing.T) {
	seen := map[int]bool{}
	var releases []func()
	for range 20 {
		p, release, err := takePort("127.0.0.1", []string{"tcp", "udp"})
		if err != nil {
			t.Fatal(err)
		}
		if seen[p] {
			t.Fatalf("port %d handed out twice", p)
		}
		seen[p] = true
		releases = append(releases, release)
	}
	for _, r := range releases {
		r()
	}
	if len(portsTaken) != 0 {
		t.Errorf("%d ports still held", len(portsTaken))
	}
}

func TestBarrierWaitsForEveryPair(t *testing.T) {
	b := newBarrier(3)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	done := make(chan error, 2)
	for range 2 {
		go func() {
			b.arrive()
			done <- b.wait(ctx)
		}()
	}
	select {
	case <-done:
		t.Fatal("a pair went on before the third arrived")
	case <-time.After(50 * time.Millisecond):
	}
	b.arrive() // the third pair gave up: it arrives without waiting
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	stuck := newBarrier(2)
	stuck.arrive()
	short, cancel2 := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel2()
	if err := stuck.wait(short); err == nil {
		t.Error("wait returned without every pair and without ctx ending")
	}
}

func TestClientsGetACPUOfTheirOwn(t *testing.T) {
	online, err := cpuset.Online()
	if err != nil || len(online) < 2 {
		t.Skip("needs a host with 2 CPUs or more")
	}
	last := strconv.Itoa(online[len(online)-1])
	rest := online[:len(online)-1].String()
	servers, client := clientPlacement([]string{"", ""})
	if client != last || servers[0] != rest || servers[1] != rest {
		t.Errorf("unpinned servers: servers %v, client %q; want %s and %s", servers, client, rest, last)
	}
	first := strconv.Itoa(online[0])
	servers, client = clientPlacement([]string{first})
	if client != last || servers[0] != first {
		t.Errorf("a server pinned to %s: servers %v, client %q", first, servers, client)
	}
	all := online.String()
	if servers, client = clientPlacement([]string{all}); client != "" || servers[0] != all {
		t.Errorf("servers on every CPU: servers %v, client %q; want the client unpinned", servers, client)
	}
}
