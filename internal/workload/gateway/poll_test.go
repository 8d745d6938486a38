package gateway

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"golang.org/x/sys/unix"
)

// TestPollParameter: poll is auto, 0 or a duration up to maxPoll; anything
// else is an error that says what it may be.
func TestPollParameter(t *testing.T) {
	for spec, want := range map[string]time.Duration{"0": 0, "0s": 0, "50us": 50 * time.Microsecond, "10ms": maxPoll} {
		c, err := workload.Parse(workload.Params{"poll": spec}, &config{})
		if err != nil {
			t.Errorf("poll %q: %v", spec, err)
			continue
		}
		if c.pollAuto() || c.poll != want {
			t.Errorf("poll %q: auto %v, %v; want %v", spec, c.pollAuto(), c.poll, want)
		}
	}
	// The default never polls (issue 40: polling cost the client more
	// CPU per request than wrk's).
	c, err := workload.Parse(workload.Params{}, &config{})
	if err != nil || c.pollAuto() || c.poll != 0 {
		t.Errorf("the default: %v, %+v", err, c)
	}
	for _, spec := range []string{"-1us", "11ms", "fast", "50"} {
		_, err := workload.Parse(workload.Params{"poll": spec}, &config{})
		if err == nil || !strings.Contains(err.Error(), "parameter poll") || !strings.Contains(err.Error(), "auto, 0 or a duration") {
			t.Errorf("poll %q: %v", spec, err)
		}
	}
}

// TestPollAuto: under auto the generator polls only on CPUs of its own
// (fewer than the host's), with no more threads than those CPUs, and
// never with the gateway in its own process; a duration given is used as
// it is. The affinity is the calling thread's, set here on a locked thread.
func TestPollAuto(t *testing.T) {
	online, err := cpuset.Online()
	if err != nil {
		t.Fatal(err)
	}
	if len(online) < 2 {
		t.Skipf("this host has %d online CPU: a client cannot have one of its own", len(online))
	}
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var all unix.CPUSet
	if err := unix.SchedGetaffinity(0, &all); err != nil {
		t.Fatal(err)
	}
	defer unix.SchedSetaffinity(0, &all)
	parse := func(p workload.Params) *config {
		c, err := workload.Parse(p, &config{})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	ctx := context.Background()
	shared := workload.WithSharedCPUs(ctx)
	if all.Count() == len(online) {
		if d := parse(workload.Params{"poll": "auto"}).pollFor(ctx); d != 0 {
			t.Errorf("on every CPU: poll %v, want 0", d)
		}
	}
	var one unix.CPUSet
	one.Set(online[len(online)-1])
	if err := unix.SchedSetaffinity(0, &one); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		ctx    context.Context
		params workload.Params
		want   time.Duration
	}{
		{ctx, workload.Params{"poll": "auto"}, defaultPoll},
		{ctx, workload.Params{"poll": "auto", "threads": 1}, defaultPoll},
		{ctx, workload.Params{"poll": "auto", "threads": 2}, 0}, // two threads on one CPU
		{shared, workload.Params{"poll": "auto"}, 0},
		{ctx, workload.Params{}, 0},
		{ctx, workload.Params{"poll": "0"}, 0},
		{shared, workload.Params{"poll": "20us"}, 20 * time.Microsecond},
	} {
		if d := parse(tc.params).pollFor(tc.ctx); d != tc.want {
			t.Errorf("on one CPU, %v, shared CPUs %v: poll %v, want %v", tc.params, tc.ctx != ctx, d, tc.want)
		}
	}
}

// TestPolledLoadAgainstNginx: a polling generator makes every request as
// one that sleeps does, sleeps in epoll far less often (one connection:
// without polling, about once a request), and still stops at the end of
// its duration on one P, where its loop seldom gives the P up.
func TestPolledLoadAgainstNginx(t *testing.T) {
	n := startNginx(t)
	cfg := loadConfig{addr: n.addr, path: ReadingPath, clients: 1, keepAlive: true,
		duration: 5 * time.Minute, requests: 2000, timeout: 2 * time.Second} // the count ends it (at load 40, 20 s made 802)
	sleepy := load(t, cfg)
	cfg.poll = maxPoll
	polled := load(t, cfg)
	for _, res := range []*loadResult{sleepy, polled} {
		if res.ok != 2000 || res.errorCount() != 0 || res.bodyLen != int64(len(nginxBody)) {
			t.Errorf("poll %v: %d ok, errors %v (%v), body %d bytes", res.poll, res.ok, res.errs, res.firstErr, res.bodyLen)
		}
	}
	if sleepy.waits < sleepy.ok/2 || polled.waits > polled.ok/4 {
		t.Errorf("waits in epoll for 2000 requests: %d without polling, %d polling %v", sleepy.waits, polled.waits, maxPoll)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	cfg.requests, cfg.duration, cfg.clients = 0, 500*time.Millisecond, 4
	start := time.Now()
	res := load(t, cfg)
	// Polling on one P must still let the duration's timer end the load
	// (starved, it would run on forever): the bounds catch that, with a
	// margin for a busy machine, not the load's speed.
	if took := time.Since(start); took > 30*time.Second || res.wall > 15*time.Second || res.ok == 0 {
		t.Errorf("a %v load on one P took %v (wall %v), %d ok", cfg.duration, took, res.wall, res.ok)
	}
}

// TestPollInAStudy: in a study the client has a CPU of its own and, with
// poll: auto, polls; the clients of two concurrent instances share that CPU,
// and neither polls. Read back from the runs' notes, as stored.
func TestPollInAStudy(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	if online, err := cpuset.Online(); err != nil || len(online) < 2 {
		t.Skipf("this host has %d online CPU (%v): a client cannot have one of its own", len(online), err)
	}
	dir := t.TempDir()
	study := `name: gateway-poll
repetitions: 1
warmup: 0
envs: [native]
workloads:
  - name: http.gateway
    params: {requests: 300, duration: 10s, keepalive: true, clients: 2, poll: auto}
factors:
  - name: instances
    levels: [1, 2]
`
	testenv.WriteFile(t, filepath.Join(dir, "gw.yaml"), []byte(study), 0o644)
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, testenv.BoxtaxBinary(t), "run", "gw.yaml", "--settle", "0", "--monitor-interval", "0", "--quiet")
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("boxtax run: %v\n%s", err, out)
	}
	_, runs, _ := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	want := map[string]map[string]string{
		"1": {"poll": defaultPoll.String()},
		"2": {"poll": "0s", "instance2.poll": "0s"}, // the first instance's notes are not prefixed
	}
	seen := 0
	for _, r := range runs {
		n := r.Levels["instances"]
		for k, v := range want[n] {
			seen++
			if r.Notes[k] != v {
				t.Errorf("%s instances: note %s is %q, want %q (client_cpus %q)", n, k, r.Notes[k], v, r.Settings["client_cpus"])
			}
		}
	}
	if seen != 3 {
		t.Errorf("%d of 3 notes looked at in %d runs", seen, len(runs))
	}
}

// TestNappingLoadAgainstNginx: a quiet loop that does not poll naps before
// it sleeps in epoll where it has napMinClients connections or more, never
// with fewer nor while it polls, and every request is made and counted as
// without naps, keep-alive and not.
func TestNappingLoadAgainstNginx(t *testing.T) {
	for _, keepAlive := range []bool{true, false} {
		for _, tc := range []struct {
			clients int
			poll    time.Duration
			naps    bool
		}{{napMinClients * 2, 0, true}, {napMinClients - 1, 0, false}, {napMinClients * 2, maxPoll, false}} {
			t.Run(fmt.Sprintf("keepalive=%v,clients=%d,poll=%v", keepAlive, tc.clients, tc.poll), func(t *testing.T) {
				n := startNginx(t)
				res := load(t, loadConfig{addr: n.addr, path: ReadingPath, clients: tc.clients, keepAlive: keepAlive, threads: 1,
					quietWait: true, poll: tc.poll, duration: 5 * time.Minute, requests: 2000, timeout: 2 * time.Second})
				if res.ok != 2000 || res.errorCount() != 0 || res.latency.Count() != 2000 || res.bodyLen != int64(len(nginxBody)) {
					t.Errorf("%d ok, errors %v (%v), body %d bytes", res.ok, res.errs, res.firstErr, res.bodyLen)
				}
				if requests, _, statuses := n.connections(t, 2000); requests != 2000 || statuses["200"] != 2000 {
					t.Errorf("nginx logged %d requests (%v)", requests, statuses)
				}
				if (res.naps > 0) != tc.naps {
					t.Errorf("%d naps, %d waits in epoll for 2000 requests; want naps: %v", res.naps, res.waits, tc.naps)
				}
			})
		}
	}
}
