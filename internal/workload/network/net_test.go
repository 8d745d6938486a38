package network_test

import (
	"context"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	wnet "github.com/boxtax/boxtax/internal/workload/network"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// TestLoopback runs both sides of every workload over loopback in each of
// its modes and checks the figures are plausible.
func TestLoopback(t *testing.T) {
	cases := []struct {
		name   string
		w      workload.ClientServer
		params workload.Params
		check  func(t *testing.T, r *workloadtest.Recorder)
	}{
		{"tcp in", wnet.TCP, workload.Params{"duration": "300ms"}, mbitAbove(100)},
		{"tcp out 3 streams", wnet.TCP, workload.Params{"duration": "300ms", "direction": "out", "streams": 3}, mbitAbove(100)},
		{"tcp small buffer and window", wnet.TCP, workload.Params{"duration": "200ms", "buffer": "1KiB", "window": "256KiB"}, mbitAbove(1)},
		{"udp in paced", wnet.UDP, workload.Params{"duration": "300ms", "rate": "20mbit"}, func(t *testing.T, r *workloadtest.Recorder) {
			if v := r.Last("mbit_per_s"); v < 15 || v > 22 {
				t.Errorf("paced at 20mbit, got %.2f Mbit/s", v)
			}
			if r.Notes["datagrams_received"] == "" {
				t.Error("no datagrams_received note")
			}
		}},
		{"udp out flat out", wnet.UDP, workload.Params{"duration": "300ms", "direction": "out", "size": 200}, mbitAbove(1)},
		{"rr tcp", wnet.RR, workload.Params{"duration": "300ms"}, rttBelow(5000)},
		{"rr udp 64 B", wnet.RR, workload.Params{"duration": "300ms", "protocol": "udp", "size": 64}, rttBelow(5000)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, _, err := workload.Prepare(c.w, c.params)
			if err != nil {
				t.Fatal(err)
			}
			r := &workloadtest.Recorder{}
			if err := workload.Run(context.Background(), c.w, p, workload.Env{}, r); err != nil {
				t.Fatalf("Run: %v", err)
			}
			for _, m := range c.w.Info().Metrics {
				if _, ok := r.Samples[m.Name]; !ok {
					t.Errorf("metric %s not reported", m.Name)
				}
			}
			c.check(t, r)
			// Every server ends with its client's session, by itself.
			if v, stopped := r.Notes["server.stopped"]; stopped {
				t.Errorf("the server had to be stopped: %s", v)
			}
			t.Logf("samples %v notes %v", r.Samples, r.Notes)
		})
	}
}

func mbitAbove(min float64) func(*testing.T, *workloadtest.Recorder) {
	return func(t *testing.T, r *workloadtest.Recorder) {
		if v := r.Last("mbit_per_s"); v < min {
			t.Errorf("%.1f Mbit/s over loopback, want more than %.0f", v, min)
		}
	}
}

func rttBelow(maxUs float64) func(*testing.T, *workloadtest.Recorder) {
	return func(t *testing.T, r *workloadtest.Recorder) {
		s := r.LastSamples()
		if !(s["rtt_p50_us"] > 0 && s["rtt_p50_us"] <= s["rtt_p99_us"] && s["rtt_mean_us"] < maxUs && s["transactions_per_s"] > 1e6/maxUs) {
			t.Errorf("implausible round trips: %v", s)
		}
	}
}

func TestBadParameters(t *testing.T) {
	workloadtest.Refuses(t, wnet.TCP, []workloadtest.Refusal{
		{Params: workload.Params{"direction": "up"}, Want: `parameter direction: "up" is not in or out`},
		{Params: workload.Params{"streams": 0}, Want: "streams"},
	})
	workloadtest.Refuses(t, wnet.UDP, []workloadtest.Refusal{
		{Params: workload.Params{"rate": "fast"}, Want: "not a bit rate"},
		{Params: workload.Params{"size": 8}, Want: "size"},
	})
	workloadtest.Refuses(t, wnet.RR, []workloadtest.Refusal{
		{Params: workload.Params{"protocol": "sctp"}, Want: "not tcp or udp"},
	})
}

func TestPortInUseSaysSo(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	p, _, _ := workload.Prepare(wnet.TCP, nil)
	err = workloadtest.Sides(t, wnet.TCP, p).Serve(context.Background(), ln.Addr().String(), &workloadtest.Recorder{})
	if err == nil || !strings.Contains(err.Error(), "in use by another program") {
		t.Errorf("error %v, want one saying the port is in use", err)
	}
}

// TestServerIgnoresStrangers: a connection that is not a boxtax client does
// not take the server's one session.
func TestServerIgnoresStrangers(t *testing.T) {
	p, _, _ := workload.Prepare(wnet.RR, workload.Params{"duration": "100ms"})
	r := &workloadtest.Recorder{}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	addr := make(chan string, 1)
	served := make(chan error, 1)
	sides := workloadtest.Sides(t, wnet.RR, p)
	go func() { served <- sides.Serve(ctx, "127.0.0.1:0", listenNote{addr}) }()
	a := <-addr
	stranger, err := net.Dial("tcp4", a)
	if err != nil {
		t.Fatal(err)
	}
	stranger.Write([]byte("GET / HTTP/1.0\r\n\r\n"))
	stranger.Close()
	if err := sides.Client(ctx, a, r); err != nil {
		t.Fatalf("client after a stranger: %v", err)
	}
	if err := <-served; err != nil {
		t.Errorf("server: %v", err)
	}
}

// listenNote hands the server's listening address over.
type listenNote struct{ addr chan string }

func (listenNote) Sample(string, float64) {}
func (l listenNote) Note(k, v string) {
	if k == workload.NoteListening {
		l.addr <- v
	}
}

// Both sides of net.rr in one process with one P still make round trips:
// they are not quiet then, or they would hold the P each other needs.
func TestRRInOneProcessWithOneP(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	for _, proto := range []string{"tcp", "udp"} {
		rec := &workloadtest.Recorder{}
		p := workload.Params{"protocol": proto, "size": 1, "duration": "300ms"}
		if err := workload.Run(context.Background(), wnet.RR, p, workload.Env{}, rec); err != nil {
			t.Fatalf("%s: %v", proto, err)
		}
		if n := rec.Last("transactions_per_s"); n < 100 {
			t.Errorf("%s: %.0f transactions/s with one P, want at least 100", proto, n)
		}
	}
}
