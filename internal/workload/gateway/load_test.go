package gateway

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// TestGatewayUnderLoad runs both sides in this process: every request is
// answered with the 52-byte body, and keep-alive decides how many
// connections are opened, as the gateway counts them too.
func TestGatewayUnderLoad(t *testing.T) {
	for _, keepAlive := range []bool{true, false} {
		t.Run(fmt.Sprintf("keepalive=%v", keepAlive), func(t *testing.T) {
			p := workloadtest.Prepare(t, Gateway, workload.Params{"clients": 4, "requests": 400, "duration": "20s", "keepalive": keepAlive})
			r := workloadtest.Run(t, t.Context(), Gateway, p, workload.Env{})
			ok := r.NoteInt(t, "requests_ok")
			conns := r.NoteInt(t, "connections_opened")
			accepted := r.NoteInt(t, "server.connections_accepted") - 1 // the session's
			served := r.NoteInt(t, "server.requests_served")
			if ok != 400 || served != 400 || r.One(t, "errors") != 0 || r.One(t, "error_rate_pct") != 0 {
				t.Errorf("%d requests ok, %d served, notes %v", ok, served, r.Notes)
			}
			if r.Notes["body_bytes"] != "52" || r.Notes["server.body_bytes"] != "52" || r.Notes["server.agent"] != "simulated" {
				t.Errorf("notes %v", r.Notes)
			}
			want := int64(4)
			if !keepAlive {
				want = 400
			}
			if conns != want || accepted != want {
				t.Errorf("keep-alive %v: %d connections opened, %d accepted, want %d", keepAlive, conns, accepted, want)
			}
			p50, p90, p99 := r.One(t, "latency_p50_ms"), r.One(t, "latency_p90_ms"), r.One(t, "latency_p99_ms")
			if !(p50 > 0 && p50 <= p90 && p90 <= p99) || r.One(t, "requests_per_s") <= 0 {
				t.Errorf("p50 %v p90 %v p99 %v ms", p50, p90, p99)
			}
		})
	}
}

// TestGatewayForDuration: without a request count the load lasts its
// duration and the requests per second are the requests over it.
func TestGatewayForDuration(t *testing.T) {
	p := workloadtest.Prepare(t, Gateway, workload.Params{"clients": 3, "duration": "300ms", "keepalive": true})
	start := time.Now()
	r := workloadtest.Run(t, t.Context(), Gateway, p, workload.Env{})
	took := time.Since(start)
	// The load ends at its duration: its wall time is at least that, and
	// no more than the call took; how much more is the machine's (a bound
	// of a minute only catches a load that does not end).
	wall, _ := strconv.ParseFloat(r.Notes["wall_s"], 64)
	ok := r.NoteInt(t, "requests_ok")
	if wall < 0.3 || wall > took.Seconds()+0.001 || took > time.Minute || ok == 0 {
		t.Errorf("wall %v s in a call of %v, %d requests", wall, took, ok)
	}
	if rps := r.One(t, "requests_per_s"); rps < float64(ok)/wall*0.99 || rps > float64(ok)/wall*1.01 { // wall_s has 3 decimals
		t.Errorf("%v requests/s from %d requests in %v s", rps, ok, wall)
	}
}

func load(t *testing.T, cfg loadConfig) *loadResult {
	t.Helper()
	res, err := runLoad(t.Context(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// nginx is a real nginx serving the gateway's body at ReadingPath, logging
// the connection of every request.
type nginx struct {
	addr, log string
	cmd       *exec.Cmd
}

const nginxBody = `{"bn":"iam/","e":[{"n":"co2","u":"ppm","v":612.35}]}`

func startNginx(t *testing.T) *nginx { return startNginxWith(t, 1000000) }

// startNginxWith starts nginx closing every connection after
// keepaliveRequests requests, as its default of 1000 does.
func startNginxWith(t *testing.T, keepaliveRequests int) *nginx {
	t.Helper()
	bin := "/usr/sbin/nginx"
	testenv.RequireTool(t, bin, "nginx-light")
	dir := t.TempDir()
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	n := &nginx{addr: addr, log: filepath.Join(dir, "access.log")}
	conf := fmt.Sprintf(`daemon off;
master_process off;
worker_processes 1;
pid %[1]s/nginx.pid;
error_log stderr;
events { worker_connections 1024; }
http {
  log_format conn '$connection $connection_requests $status';
  access_log %[2]s conn;
  client_body_temp_path %[1]s/body;
  proxy_temp_path %[1]s/proxy;
  fastcgi_temp_path %[1]s/fastcgi;
  uwsgi_temp_path %[1]s/uwsgi;
  scgi_temp_path %[1]s/scgi;
  keepalive_requests %[7]d;
  server {
    listen %[3]s;
    location = %[4]s { default_type %[5]s; return 200 '%[6]s'; }
  }
}
`, dir, n.log, addr, ReadingPath, ContentType, nginxBody, keepaliveRequests)
	cf := filepath.Join(dir, "nginx.conf")
	testenv.WriteFile(t, cf, []byte(conf), 0o644)
	n.cmd = exec.Command(bin, "-p", dir, "-c", cf, "-e", "stderr")
	var stderr strings.Builder
	n.cmd.Stderr = &stderr
	if err := n.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		n.cmd.Process.Kill()
		n.cmd.Wait()
	})
	for deadline := time.Now().Add(5 * time.Second); ; {
		c, err := net.Dial("tcp", addr)
		if err == nil {
			c.Close()
			return n
		}
		if time.Now().After(deadline) {
			t.Fatalf("nginx did not listen at %s: %v\n%s", addr, err, stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// connections counts the log's requests and their distinct connections,
// once it holds want requests or 2 s passed: nginx writes a request's log
// line after its response is sent, so the last ones may still be coming.
func (n *nginx) connections(t *testing.T, want int) (requests int, conns int, statuses map[string]int) {
	t.Helper()
	for deadline := time.Now().Add(2 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		requests, conns, statuses = n.readLog(t)
		if requests >= want || time.Now().After(deadline) {
			return requests, conns, statuses
		}
	}
}

func (n *nginx) readLog(t *testing.T) (requests int, conns int, statuses map[string]int) {
	t.Helper()
	f, err := os.Open(n.log)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	seen := map[string]bool{}
	statuses = map[string]int{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) != 3 {
			t.Fatalf("log line %q", sc.Text())
		}
		requests++
		seen[fields[0]] = true
		statuses[fields[2]]++
	}
	return requests, len(seen), statuses
}

// TestLoadAgainstNginx loads a real nginx: every request is answered and
// nginx's own log shows the requests and the connections the generator
// says it made, one per client with keep-alive and one per request without.
func TestLoadAgainstNginx(t *testing.T) {
	for _, keepAlive := range []bool{true, false} {
		t.Run(fmt.Sprintf("keepalive=%v", keepAlive), func(t *testing.T) {
			n := startNginx(t)
			res := load(t, loadConfig{addr: n.addr, path: ReadingPath, clients: 5, keepAlive: keepAlive,
				duration: 20 * time.Second, requests: 1000, timeout: 2 * time.Second})
			if res.ok != 1000 || res.errorCount() != 0 || res.bodyLen != int64(len(nginxBody)) || res.latency.Count() != 1000 {
				t.Errorf("%d ok, errors %v (%v), body %d bytes", res.ok, res.errs, res.firstErr, res.bodyLen)
			}
			requests, conns, statuses := n.connections(t, 1000)
			want := 5
			if !keepAlive {
				want = 1000
			}
			if requests != 1000 || statuses["200"] != 1000 || conns != want || res.conns != int64(want) {
				t.Errorf("nginx logged %d requests (%v) on %d connections; the generator opened %d; want %d", requests, statuses, conns, res.conns, want)
			}
		})
	}
	// nginx says Connection: close on the 10th request of a connection and
	// closes it: the generator opens the next without counting an error.
	t.Run("server closes kept-alive connections", func(t *testing.T) {
		n := startNginxWith(t, 10)
		res := load(t, loadConfig{addr: n.addr, path: ReadingPath, clients: 5, keepAlive: true,
			duration: 20 * time.Second, requests: 1000, timeout: 2 * time.Second})
		requests, conns, _ := n.connections(t, 1000)
		// 10 requests a connection: 100, and up to one more per client
		// for the requests not a multiple of 10 each client made.
		if res.ok != 1000 || res.errorCount() != 0 || requests != 1000 || int64(conns) != res.conns || conns < 100 || conns > 105 {
			t.Errorf("%d ok, errors %v (%v); nginx: %d requests on %d connections; opened %d", res.ok, res.errs, res.firstErr, requests, conns, res.conns)
		}
	})
	t.Run("not found", func(t *testing.T) {
		n := startNginx(t)
		res := load(t, loadConfig{addr: n.addr, path: "/nothing", clients: 2, keepAlive: true,
			duration: 20 * time.Second, requests: 50, timeout: 2 * time.Second})
		if res.ok != 0 || res.errs[errStatus] != 50 || res.statuses[404] != 50 {
			t.Errorf("%d ok, errors %v, statuses %v", res.ok, res.errs, res.statuses)
		}
	})
}

// TestLoadOfAServerThatNeverAnswers: requests time out and are counted; the
// load ends at its duration.
func TestLoadOfAServerThatNeverAnswers(t *testing.T) {
	ln, err := net.Listen("tcp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	var mu sync.Mutex
	var held []net.Conn
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	defer func() {
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	}()
	start := time.Now()
	res := load(t, loadConfig{addr: ln.Addr().String(), path: "/", clients: 3, keepAlive: true,
		duration: time.Second, timeout: 200 * time.Millisecond})
	// Every request times out: at least one a client, at most one a
	// 200 ms of the 1 s (each waits its whole timeout). How many between
	// depends on the machine; a minute only catches a load that hangs.
	if took := time.Since(start); took > time.Minute {
		t.Errorf("took %v", took)
	}
	if res.ok != 0 || res.errs[errTimeout] < 3 || res.errs[errTimeout] > 3*5 {
		t.Errorf("%d ok, errors %v: want 3 to 3 clients x 1 s / 200 ms timeouts", res.ok, res.errs)
	}
}

// TestReadConntrack reads the host's connection tracking counters where
// they are.
func TestReadConntrack(t *testing.T) {
	if _, err := os.Stat("/proc/net/stat/nf_conntrack"); err != nil {
		t.Skip("no connection tracking here")
	}
	c := readConntrack()
	if !c.ok || c.max <= 0 || c.drops < 0 || c.count < 0 {
		t.Errorf("%+v", c)
	}
}

// TestLoadOverIPv6 loads a server on ::1: the generator connects with the
// sockaddr_in6 it builds itself, with and without keep-alive.
func TestLoadOverIPv6(t *testing.T) {
	ln, err := net.Listen("tcp6", "[::1]:0")
	if err != nil {
		t.Skipf("no IPv6 loopback on this host: %v", err)
	}
	var conns atomic.Int64
	srv := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("ok")) }),
		ConnState: func(_ net.Conn, s http.ConnState) {
			if s == http.StateNew {
				conns.Add(1)
			}
		},
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	for _, keepAlive := range []bool{true, false} {
		conns.Store(0)
		res := load(t, loadConfig{addr: ln.Addr().String(), path: "/", clients: 3, keepAlive: keepAlive,
			duration: 20 * time.Second, requests: 300, timeout: 2 * time.Second})
		want := int64(3)
		if !keepAlive {
			want = 300
		}
		if res.ok != 300 || res.errorCount() != 0 || res.bodyLen != 2 || res.conns != want || conns.Load() != want {
			t.Errorf("keep-alive %v: %d ok, errors %v (%v), body %d bytes, %d connections opened, the server saw %d; want %d",
				keepAlive, res.ok, res.errs, res.firstErr, res.bodyLen, res.conns, conns.Load(), want)
		}
	}
}
