package ingest

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/hostprog"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// startRedis starts a real redis-server for a test.
func startRedis(t *testing.T) *deployment {
	t.Helper()
	requirePrograms(t, redisServer)
	d := &deployment{dir: t.TempDir()}
	if err := d.startRedis(context.Background()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.redis.Stop(syscall.SIGTERM, 5*time.Second) })
	return d
}

func TestRESPAgainstRealRedis(t *testing.T) {
	d := startRedis(t)
	c, err := dialRedis(context.Background(), d.redisAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	for _, tc := range []struct {
		args []string
		want any
	}{
		{[]string{"PING"}, "PONG"},
		{[]string{"SET", "k", "a\r\nb"}, "OK"}, // binary-safe bulk strings
		{[]string{"GET", "k"}, "a\r\nb"},
		{[]string{"GET", "absent"}, nil},
		{[]string{"RPUSH", "l", "x", "y"}, int64(2)},
		{[]string{"LRANGE", "l", "0", "-1"}, []any{"x", "y"}},
	} {
		got, err := c.doStrings(tc.args...)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%v: %#v, %v; want %#v", tc.args, got, err, tc.want)
		}
	}
	if _, err := c.doStrings("NOSUCHCOMMAND"); err == nil || !strings.Contains(err.Error(), "unknown command") {
		t.Errorf("an unknown command: %v, want redis's error", err)
	}
	if got, err := c.doStrings("PING"); err != nil || got != "PONG" { // the connection survives an error reply
		t.Errorf("after an error reply: %v %v", got, err)
	}
}

func TestNodeStoresWhatItReceives(t *testing.T) {
	d := startRedis(t)
	n, err := d.startNode(context.Background(), nodeConfig{Index: 1, Redis: d.redisAddr(), Pool: 2, StreamLen: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop(syscall.SIGTERM, 3*time.Second)
	bodies := [][]byte{[]byte("0123456789abcdef0123456789abcdef\x00\xff\r\n"), []byte("second")}
	for _, b := range bodies {
		resp, err := http.Post("http://"+n.addr+"/devices/dev-7/messages", "application/octet-stream", bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("status %s, want 201 Created", resp.Status)
		}
	}
	c, err := dialRedis(context.Background(), d.redisAddr())
	if err != nil {
		t.Fatal(err)
	}
	defer c.close()
	got, err := c.doStrings("XRANGE", "device:dev-7", "-", "+")
	if err != nil {
		t.Fatal(err)
	}
	entries, _ := got.([]any)
	if len(entries) != len(bodies) {
		t.Fatalf("redis holds %d messages of the device, want %d: %#v", len(entries), len(bodies), got)
	}
	for i, e := range entries {
		fields := e.([]any)[1].([]any)
		if fields[0] != "data" || fields[1] != string(bodies[i]) {
			t.Errorf("message %d stored as %q, want data %q", i, fields, bodies[i])
		}
	}
}

// procCPUs reads the CPUs a process may run on.
func procCPUs(t *testing.T, pid int) string {
	t.Helper()
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "Cpus_allowed_list:"); ok {
			return strings.TrimSpace(v)
		}
	}
	t.Fatalf("no Cpus_allowed_list for pid %d", pid)
	return ""
}

func TestNginxRoundRobinsOverPinnedNodes(t *testing.T) {
	requirePrograms(t, redisServer, nginxBin)
	online, err := cpuset.Parse(cpuset.Allowed())
	if err != nil || len(online) < 2 {
		t.Skipf("affinity needs 2 CPUs, this process may use %s", cpuset.Allowed())
	}
	for _, affinity := range []string{affinityDedicated, affinityShared} {
		t.Run(affinity, func(t *testing.T) {
			sets, err := nodeCPUs(online, 3, affinity)
			if err != nil {
				t.Fatal(err)
			}
			addr, _ := resolvePort("127.0.0.1:0")
			ctl, _ := net.Listen("tcp4", "127.0.0.1:0")
			defer ctl.Close()
			d, err := startDeployment(context.Background(), deploymentConfig{listen: addr, control: ctl.Addr().String(),
				nodeCPUs: sets, workers: 2, devices: 10, streamLen: 10, pool: 2})
			if err != nil {
				t.Fatal(err)
			}
			defer d.stop()
			for i, n := range d.nodes {
				if got := procCPUs(t, n.Pid()); got != sets[i] {
					t.Errorf("node %d runs on CPUs %s, want %s", i+1, got, sets[i])
				}
			}
			client := &http.Client{}
			for i := range 30 {
				resp, err := client.Post(fmt.Sprintf("http://%s/devices/dev-%d/messages", addr, i), "application/octet-stream", strings.NewReader("36 bytes of a reading, more or less"))
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusCreated {
					t.Fatalf("status %s through nginx", resp.Status)
				}
			}
			stats, err := d.collect(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			for _, s := range stats {
				if s.Requests != 10 {
					t.Errorf("node %d got %d of 30 requests; round-robin gives each 10", s.Index, s.Requests)
				}
			}
		})
	}
}

// TestFaultsAreCountedAndTheRunEnds kills a node, then redis, in the
// middle of a run: the run ends on time with the failures counted.
func TestFaultsAreCountedAndTheRunEnds(t *testing.T) {
	requirePrograms(t, redisServer, nginxBin)
	for _, kill := range []string{"node", "redis", "nginx", "nginx and its workers"} {
		t.Run(kill, func(t *testing.T) {
			var dir string
			deployed = func(d *deployment) {
				dir = d.dir
				victim := map[string]*hostprog.Process{"node": d.nodes[0].Process, "redis": d.redis}[kill]
				if victim == nil {
					victim = d.nginx
				}
				time.AfterFunc(700*time.Millisecond, func() {
					if kill == "nginx and its workers" {
						// Stop the master first: a running master forks a new
						// worker for each one killed, and one forked after the
						// children were read would outlive it and serve on (a
						// CI run saw node figures arrive through it).
						_ = syscall.Kill(victim.Pid(), syscall.SIGSTOP)
						pid := strconv.Itoa(victim.Pid())
						b, _ := os.ReadFile("/proc/" + pid + "/task/" + pid + "/children")
						for _, w := range strings.Fields(string(b)) {
							n, _ := strconv.Atoi(w)
							_ = syscall.Kill(n, syscall.SIGKILL)
						}
					}
					_ = syscall.Kill(victim.Pid(), syscall.SIGKILL)
				})
			}
			defer func() { deployed = nil }()
			p := workloadtest.Prepare(t, Ingest, workload.Params{"duration": "2s", "devices": 30, "nodes": 2})
			start := time.Now()
			r := workloadtest.Run(t, context.Background(), Ingest, p, workload.Env{})
			t.Log(r.String())
			if took := time.Since(start); took > 20*time.Second {
				t.Errorf("the run took %v", took)
			}
			if len(r.Samples["messages"]) != 1 || r.Samples["messages"][0] == 0 {
				t.Errorf("messages %v: the work before the fault must count", r.Samples["messages"])
			}
			if !strings.Contains(r.Notes["server.problems"], strings.Fields(kill)[0]) {
				t.Errorf("server.problems %q does not name the %s that died", r.Notes["server.problems"], kill)
			}
			if kill == "redis" {
				if e := r.Samples["error_pct"]; len(e) != 1 || e[0] <= 0 {
					t.Errorf("error_pct %v: every message after redis died fails", e)
				}
				if !strings.Contains(r.Notes["error_statuses"], "503:") {
					t.Errorf("error_statuses %q: the nodes answer 503 without redis", r.Notes["error_statuses"])
				}
			}
			if kill == "nginx and its workers" {
				// Nobody answers: the devices count what they could not
				// send, and the session could not end with the nodes' figures.
				if r.Samples["error_pct"][0] <= 0 || r.Notes["transport_errors"] == "0" || !strings.HasPrefix(r.Notes["node_figures"], "none:") {
					t.Errorf("without nginx: error_pct %v, transport_errors %s, node_figures %q", r.Samples["error_pct"], r.Notes["transport_errors"], r.Notes["node_figures"])
				}
			}
			if kill == "node" && r.Notes["node_messages"] == "" {
				t.Error("the surviving node's figures are missing")
			}
			// nginx's workers outlive their master; nothing may outlive the run.
			time.Sleep(100 * time.Millisecond)
			if left := processesIn(dir); len(left) > 0 {
				t.Errorf("processes left running in %s: %v", dir, left)
			}
		})
	}
}

func TestSinkMeasuresTheDevicesAlone(t *testing.T) {
	p := workloadtest.Prepare(t, Ingest, workload.Params{"duration": "500ms", "devices": 20, "target": "sink"})
	r := workloadtest.Run(t, context.Background(), Ingest, p, workload.Env{})
	if r.Samples["messages"][0] == 0 || r.Notes["server.target"] != "sink" || len(r.Samples["node_median_us"]) != 1 {
		t.Errorf("the sink's run: %v", r.String())
	}
}

func TestTakenPortIsReportedAsSuch(t *testing.T) {
	requirePrograms(t, redisServer, nginxBin)
	other, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	go http.Serve(other, http.NotFoundHandler())
	before, _ := filepath.Glob(filepath.Join(os.TempDir(), "boxtax-ingest-*"))
	_, err = startDeployment(context.Background(), deploymentConfig{listen: other.Addr().String(), control: "127.0.0.1:9",
		nodeCPUs: []string{""}, workers: 1, devices: 1, streamLen: 10, pool: 1})
	// The study retries with another port on these words (portTaken).
	if err == nil || !strings.Contains(err.Error(), "in use by another program") {
		t.Fatalf("nginx on a taken port: %v", err)
	}
	// What had started (redis, the node) is stopped and its directory gone.
	after, _ := filepath.Glob(filepath.Join(os.TempDir(), "boxtax-ingest-*"))
	if len(after) > len(before) {
		t.Errorf("left behind after a failed start: %v (before: %v)", after, before)
	}
}
