package command

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestServerParams(t *testing.T) {
	for why, p := range map[string]workload.Params{
		"does not say where to listen": {"server": "sleep 10", "client": "true"},
		"cannot be probed":             {"server": "sleep {port}", "client": "true", "protocol": "udp"},
		"neither port nor":             {"server": "sleep {port}", "client": "true", "ready": "(unclosed"},
		"valid: tcp, udp, tcp+udp":     {"server": "sleep {port}", "client": "true", "protocol": "sctp"},
		"is required":                  {"server": "sleep {port}"},
	} {
		if _, _, err := workload.Prepare(Server, p); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%v: %v, want %q", p, err, why)
		}
	}
	// A program this host lacks is the host check's to refuse, not
	// validation's (issue 25).
	for why, p := range map[string]workload.Params{
		"parameter client": {"server": "sleep {port}", "client": "no-such-client-of-boxtax"},
		"parameter server": {"server": "no-such-server-of-boxtax {port}", "client": "true"},
	} {
		if err := workload.CheckHost(Server, workloadtest.Prepare(t, Server, p)); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%v: %v, want %q", p, err, why)
		}
	}
	requireTool(t, "iperf3", "iperf3")
	p, _, err := workload.Prepare(Server, workload.Params{"server": "iperf3 -s -B {host} -p {port}", "client": "sh -c 'echo 5 ok'",
		"metrics": []any{"oks=([0-9]+) ok"}, "cap_add": []any{"NET_ADMIN"}})
	if err != nil {
		t.Fatal(err)
	}
	req := workloadtest.Requirements(t, Server, p)
	if len(req.HostPrograms) != 1 || !strings.HasSuffix(req.HostPrograms[0], "/iperf3") || len(req.CapAdd) != 1 {
		t.Errorf("requirements %+v: the server's program and capabilities, not the client's", req)
	}
	var names []string
	for _, m := range (Server).MetricsFor(p) {
		names = append(names, m.Name)
	}
	if strings.Join(names, ",") != "wall_s,user_s,sys_s,maxrss_mib,oks" {
		t.Errorf("metrics %v: the client's", names)
	}
}

func runServer(t *testing.T, p workload.Params) (*workloadtest.Recorder, error) {
	t.Helper()
	prepared := workloadtest.Prepare(t, Server, p)
	var rec workloadtest.Recorder
	return &rec, workload.Run(context.Background(), Server, prepared, workload.Env{ScratchDir: t.TempDir()}, &rec)
}

// TestServerAndClientForReal: iperf3's server and client, and a web
// server (python3's) with ab and wrk, each both sides in this process.
func TestServerAndClientForReal(t *testing.T) {
	t.Run("iperf3", func(t *testing.T) {
		requireTool(t, "iperf3", "iperf3")
		rec, err := runServer(t, workload.Params{"server": "iperf3 -s --forceflush -B {host} -p {port}", "ready": "Server listening",
			"client": "iperf3 -c {host} -p {port} -t 1"})
		if err != nil {
			t.Fatal(err)
		}
		if v := rec.One(t, "received_mbit_per_s"); v < 10 {
			t.Errorf("received %v Mbit/s over loopback", v)
		}
		rec, err = runServer(t, workload.Params{"server": "iperf3 -s --forceflush -B {host} -p {port}", "ready": "Server listening",
			"client": "iperf3 -c {host} -p {port} -t 1 -u -b 20M"})
		if err != nil {
			t.Fatal(err)
		}
		if v := rec.One(t, "received_mbit_per_s"); v < 15 || v > 25 {
			t.Errorf("UDP at 20 Mbit/s: received %v", v)
		}
		rec.One(t, "jitter_ms")
		rec.One(t, "lost_pct")
	})
	// webClient runs client against python's web server and checks it served
	// requests. The server serves a directory of one file of its own: a
	// listing of a directory that changes while ab runs (the run's scratch
	// files) has another length each time, which ab counts as failed.
	webClient := func(t *testing.T, client string) *workloadtest.Recorder {
		requireTool(t, "python3", "python3")
		dir := t.TempDir()
		testenv.WriteFile(t, filepath.Join(dir, "index.html"), []byte("<p>boxtax</p>\n"), 0o644)
		p := workload.Params{"client": client, "server": "python3 -m http.server {port} --bind {host} --directory " + dir}
		rec, err := runServer(t, p)
		if err != nil {
			t.Fatal(err)
		}
		if v := rec.One(t, "requests_per_s"); v <= 0 {
			t.Errorf("requests/s %v", v)
		}
		return rec
	}
	t.Run("ab", func(t *testing.T) {
		requireTool(t, "ab", "apache2-utils")
		rec := webClient(t, "ab -n 200 -c 2 http://{addr}/")
		if v := rec.One(t, "failed_requests"); v != 0 {
			t.Errorf("failed requests %v", v)
		}
	})
	t.Run("wrk", func(t *testing.T) {
		requireTool(t, "wrk", "wrk")
		rec := webClient(t, "wrk -t 1 -c 2 -d 1s http://{addr}/")
		if v := rec.One(t, "latency_avg_ms"); v <= 0 {
			t.Errorf("latency %v", v)
		}
	})
	t.Run("a server that never gets ready", func(t *testing.T) {
		_, err := runServer(t, workload.Params{"server": "sh -c 'echo starting on {port}; sleep 30'", "client": "true", "ready_timeout": "1s"})
		if err == nil || !strings.Contains(err.Error(), "not ready within 1s") || !strings.Contains(err.Error(), "starting on") {
			t.Errorf("%v", err)
		}
	})
	t.Run("a server that dies", func(t *testing.T) {
		_, err := runServer(t, workload.Params{"server": "sh -c 'echo cannot bind {port} >&2; exit 1'", "client": "true"})
		if err == nil || !strings.Contains(err.Error(), "ended before its client was done") || !strings.Contains(err.Error(), "cannot bind") {
			t.Errorf("%v", err)
		}
	})
}
