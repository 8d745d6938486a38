package mqtt

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// mosquittoChildren lists the mosquitto processes this test process started.
func mosquittoChildren(t *testing.T) []int {
	t.Helper()
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	var out []int
	for _, f := range tasks {
		b, _ := os.ReadFile(f)
		for _, s := range strings.Fields(string(b)) {
			pid, _ := strconv.Atoi(s)
			comm, _ := os.ReadFile("/proc/" + s + "/comm")
			if strings.TrimSpace(string(comm)) == "mosquitto" {
				out = append(out, pid)
			}
		}
	}
	return out
}

// serveInBackground starts Serve and returns the address it listens at,
// its notes and a channel with its result.
func serveInBackground(t *testing.T, ctx context.Context, p workload.Params) (string, *workload.ServerNotes, chan error) {
	t.Helper()
	notes := workload.NewServerNotes()
	served := make(chan error, 1)
	sides := workloadtest.Sides(t, Pub, p)
	go func() { served <- sides.Serve(ctx, "127.0.0.1:0", notes) }()
	select {
	case addr := <-notes.Listening:
		return addr, notes, served
	case err := <-served:
		t.Fatalf("Serve ended before listening: %v", err)
	case <-time.After(20 * time.Second):
		t.Fatal("Serve did not listen within 20 s")
	}
	return "", nil, nil
}

// brokerFault is a run of the client against a mosquitto that got a signal
// part way: what the client recorded, how long it took and its error, and
// the server's notes, result and mosquitto process.
type brokerFault struct {
	r         *workloadtest.Recorder
	took      time.Duration
	clientErr error
	notes     *workload.ServerNotes
	served    chan error
	pid       int
	cancel    context.CancelFunc // ends the server
}

// runSignallingBroker serves Pub with params, sends sig to its mosquitto
// after the given time and runs the client to its end.
func runSignallingBroker(t *testing.T, params workload.Params, after time.Duration, sig syscall.Signal) brokerFault {
	t.Helper()
	p := workloadtest.Prepare(t, Pub, params)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	t.Cleanup(cancel)
	addr, notes, served := serveInBackground(t, ctx, p)
	pids := mosquittoChildren(t)
	if len(pids) != 1 {
		t.Fatalf("mosquitto children %v, want one", pids)
	}
	time.AfterFunc(after, func() { _ = syscall.Kill(pids[0], sig) })
	f := brokerFault{r: &workloadtest.Recorder{}, notes: notes, served: served, pid: pids[0], cancel: cancel}
	start := time.Now()
	f.clientErr = workloadtest.Sides(t, Pub, p).Client(ctx, addr, f.r)
	f.took = time.Since(start)
	return f
}

// TestBrokerDiesMidRun kills the real mosquitto while clients publish: the
// run ends on time with errors and an error rate, the server notes why and
// ends, and no mosquitto is left.
func TestBrokerDiesMidRun(t *testing.T) {
	requireMosquitto(t)
	cases := []struct{ clients, inflight int }{
		{1, 1}, // a blocking thread
		{3, 1}, // through the poller
		{3, 8}, // a window
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%d clients inflight %d", c.clients, c.inflight), func(t *testing.T) {
			f := runSignallingBroker(t, workload.Params{"broker": "mosquitto", "clients": c.clients, "duration": "2s", "inflight": c.inflight, "subscribers": 1}, 700*time.Millisecond, syscall.SIGKILL)
			r, notes, served, took := f.r, f.notes, f.served, f.took
			if f.clientErr != nil {
				t.Fatalf("Client: %v (some messages were acknowledged before the kill: the run must stand with its errors)", f.clientErr)
			}
			// Ends after its duration and one acknowledgement timeout; the
			// 30 s margin is for a busy machine (it catches a hang, not speed).
			if took > 2*time.Second+ackTimeout+30*time.Second {
				t.Errorf("the client took %v with a 2 s duration", took)
			}
			errs, pct := r.One(t, "errors"), r.One(t, "error_pct")
			if errs < 3 || pct <= 0 || pct >= 100 || r.One(t, "msgs_per_s") <= 0 {
				t.Errorf("errors %v, error %% %v, msgs/s %v: want errors and a rate between 0 and 100", errs, pct, r.Samples["msgs_per_s"])
			}
			if r.Notes["first_error"] == "" {
				t.Error("no first_error note")
			}
			if d, _ := strconv.ParseFloat(r.Notes["disconnected_s"], 64); d < float64(c.clients) {
				t.Errorf("disconnected_s = %q, want about %d clients x 1.3 s", r.Notes["disconnected_s"], c.clients)
			}
			select {
			case err := <-served:
				if err != nil {
					t.Errorf("Serve: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("Serve did not end after its broker died")
			}
			notes.Flush(r)
			if !strings.Contains(r.Notes["server.broker_exit"], "killed") {
				t.Errorf("server.broker_exit = %q, want it to say mosquitto was killed", r.Notes["server.broker_exit"])
			}
			if left := mosquittoChildren(t); len(left) > 0 {
				t.Errorf("mosquitto left running: %v", left)
			}
			t.Logf("took %v; samples %v; first error %s", took, r.Samples, r.Notes["first_error"])
		})
	}
}

// TestBrokerStalls stops mosquitto (SIGSTOP) mid-run: publishes go
// unacknowledged, and the client still ends within the duration and the
// acknowledgement timeout, counting them as errors.
func TestBrokerStalls(t *testing.T) {
	requireMosquitto(t)
	f := runSignallingBroker(t, workload.Params{"broker": "mosquitto", "clients": 2, "duration": "1500ms", "inflight": 4}, 500*time.Millisecond, syscall.SIGSTOP)
	r, served, took := f.r, f.served, f.took
	_ = syscall.Kill(f.pid, syscall.SIGCONT)
	if f.clientErr != nil {
		t.Fatalf("Client: %v", f.clientErr)
	}
	if took > 1500*time.Millisecond+ackTimeout+30*time.Second { // a hang on the stopped broker, not speed
		t.Errorf("the client took %v with a 1.5 s duration", took)
	}
	if r.One(t, "errors") < 1 || r.One(t, "error_pct") <= 0 {
		t.Errorf("no errors counted for a stalled broker: %v", r.Samples)
	}
	f.cancel() // the session's end message may have been lost with the stall
	<-served
	if left := mosquittoChildren(t); len(left) > 0 {
		t.Errorf("mosquitto left running: %v", left)
	}
	t.Logf("took %v; samples %v; first error %s", took, r.Samples, r.Notes["first_error"])
}

// TestNothingListening: a client whose broker is not there fails with a
// message that says so, in bounded time.
func TestNothingListening(t *testing.T) {
	port, err := freePort("127.0.0.1")
	if err != nil {
		t.Fatal(err)
	}
	p, _, _ := workload.Prepare(Pub, workload.Params{"duration": "1s"})
	start := time.Now()
	err = workloadtest.Sides(t, Pub, p).Client(context.Background(), "127.0.0.1:"+port, &workloadtest.Recorder{})
	if err == nil || !strings.Contains(err.Error(), "cannot connect to the broker") {
		t.Errorf("error %v, want one saying it cannot connect", err)
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %v", took)
	}
}
