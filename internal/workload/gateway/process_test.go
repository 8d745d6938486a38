package gateway

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestMain(m *testing.M) { testenv.Main(m) }

// startGatewayProcess starts `boxtax worker --serve` as its own process and
// returns it with the address it listens at.
func startGatewayProcess(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	cmd := exec.Command(testenv.BoxtaxBinary(t), "worker", "--workload", "http.gateway", "--serve", "127.0.0.1:0")
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Kill()
		cmd.Wait()
	})
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var m workload.Message
			if json.Unmarshal(sc.Bytes(), &m) == nil && m.Kind == workload.KindNote && m.Key == workload.NoteListening {
				addr <- m.Text
			}
		}
	}()
	select {
	case a := <-addr:
		return cmd, a
	case <-time.After(10 * time.Second):
		t.Fatal("the gateway process did not listen within 10 s")
	}
	return nil, ""
}

// TestGatewayProcessKilledMidRun kills a real gateway process in the middle
// of a load: the client records the failed requests (reset, then refused
// connections) and their rate, and ends at its duration.
func TestGatewayProcessKilledMidRun(t *testing.T) {
	for _, keepAlive := range []bool{true, false} {
		t.Run(fmt.Sprintf("keepalive=%v", keepAlive), func(t *testing.T) {
			cmd, addr := startGatewayProcess(t)
			time.AfterFunc(700*time.Millisecond, func() { cmd.Process.Kill() })
			var r workloadtest.Recorder
			p := workloadtest.Prepare(t, Gateway, workload.Params{"clients": 8, "duration": "2s", "timeout": "500ms", "keepalive": keepAlive})
			sides := workloadtest.Sides(t, Gateway, p)
			start := time.Now()
			err := sides.Client(t.Context(), addr, &r)
			took := time.Since(start)
			if err != nil {
				t.Fatalf("the client failed instead of counting errors: %v", err)
			}
			if took > 2*time.Second+30*time.Second { // ends, not hangs on the dead server (no speed claim)
				t.Errorf("the client took %v for a 2 s load", took)
			}
			ok, errs, rate := r.NoteInt(t, "requests_ok"), r.One(t, "errors"), r.One(t, "error_rate_pct")
			if ok == 0 || errs == 0 || rate <= 0 || rate >= 100 || r.One(t, "requests_per_s") <= 0 {
				t.Errorf("%d ok, %v errors, %v %%", ok, errs, rate)
			}
			if want := 100 * errs / (errs + float64(ok)); rate < want*0.999 || rate > want*1.001 {
				t.Errorf("error rate %v %%, want %v", rate, want)
			}
			// Once it is dead, connecting fails (refused; reset while it died).
			if r.NoteInt(t, "errors_connect") == 0 || !strings.HasPrefix(r.Notes["error_connect_first"], "connect: connection") {
				t.Errorf("no failed connection recorded: %v", r.Notes)
			}
		})
	}
}

// TestEndToEnd runs http.gateway through the real CLI, natively and in both
// Docker networks, over two levels of clients and keep-alive, and checks
// the table and the stored figures.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	testenv.RequireDocker(t)
	dir := t.TempDir()
	study := `name: gateway-e2e
repetitions: 1
warmup: 0
envs: [native, docker-bridge, docker-host]
workloads:
  - name: http.gateway
    params: {requests: 500, duration: 10s}   # a count: see docs/gateway.md, Connection tracking (500: each run still has its rate, at a quarter of the cost)
factors:
  - name: clients
    levels: [1, 20]
  - name: keepalive
    levels: [false, true]
`
	testenv.WriteFile(t, filepath.Join(dir, "gw.yaml"), []byte(study), 0o644)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, testenv.BoxtaxBinary(t), "run", "gw.yaml", "--settle", "0", "--monitor-interval", "0", "--seed", "5")
	run.Dir = dir
	out, err := run.CombinedOutput()
	if err != nil {
		t.Fatalf("boxtax run: %v\n%s", err, out)
	}
	for _, want := range []string{"12/12 runs done, 0 failed", "docker-bridge", "docker-host",
		"http.gateway clients=1 keepalive=false", "http.gateway clients=20 keepalive=true", "req/s", "lat p99 ms", "errors %"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("the output lacks %q:\n%s", want, out)
		}
	}
	rep := exec.CommandContext(ctx, testenv.BoxtaxBinary(t), "report", "--format", "csv")
	rep.Dir = dir
	csv, err := rep.Output()
	if err != nil {
		t.Fatalf("boxtax report: %v", err)
	}
	// Every run of every environment has its requests per second.
	rows := 0
	for _, l := range strings.Split(string(csv), "\n") {
		if strings.Contains(l, ",requests_per_s,") {
			rows++
			f := strings.Split(l, ",")
			v, err := strconv.ParseFloat(f[len(f)-2], 64) // ...,metric,value,unit
			if err != nil || v <= 0 {
				t.Errorf("row %q", l)
			}
		}
	}
	if rows != 12 {
		t.Errorf("%d requests/s rows, want 12:\n%s", rows, csv)
	}
}

// TestCommandAgentInContainers: a command agent's program is a host
// program, so the gateway in docker-bridge and docker-host runs the host's
// very /usr/bin/date from the worker's image, reading after reading.
func TestCommandAgentInContainers(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end")
	}
	testenv.RequireDocker(t)
	if _, err := os.Stat("/usr/bin/date"); err != nil {
		t.Skip("no /usr/bin/date here")
	}
	dir := t.TempDir()
	study := `name: gateway-command-agent
repetitions: 1
warmup: 0
envs: [native, docker-bridge, docker-host]
workloads:
  - name: http.gateway
    params: {duration: 500ms, clients: 2, keepalive: true, agent: "command:/usr/bin/date +%s", period: 100ms}
`
	testenv.WriteFile(t, filepath.Join(dir, "cmd.yaml"), []byte(study), 0o644)
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Minute)
	defer cancel()
	run := exec.CommandContext(ctx, testenv.BoxtaxBinary(t), "run", "cmd.yaml", "--settle", "0", "--monitor-interval", "0")
	run.Dir = dir
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("boxtax run: %v\n%s", err, out)
	}
	_, runs, _ := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	if len(runs) != 3 {
		t.Fatalf("%d runs", len(runs))
	}
	for _, r := range runs {
		n := r.Notes
		readings, _ := strconv.Atoi(n["server.agent_readings"])
		if r.Status != "ok" || n["server.agent"] != "command:/usr/bin/date +%s" || readings < 3 || n["server.agent_failures"] != "" {
			t.Errorf("%s: status %s, notes %v", r.Env, r.Status, n)
		}
		if r.Env != "native" && r.Settings["host_programs"] != "/usr/bin/date" {
			t.Errorf("%s: settings %v", r.Env, r.Settings)
		}
	}
}
