package all_test

import (
	"context"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	_ "github.com/boxtax/boxtax/internal/workload/all"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// tinyParams make each built-in workload finish in a fraction of a second.
// A workload added to the registry must get an entry here.
var tinyParams = map[string]workload.Params{
	"cmd":         {"cmd": "sh -c 'echo 3 frames'", "metrics": []any{"frames=([0-9]+) frames"}},
	"cmd.server":  {"server": "iperf3 -s --forceflush -B {host} -p {port}", "ready": "Server listening", "client": "iperf3 -c {host} -p {port} -n 1M -J", "parse": "none", "metrics": []any{"bytes=json:.end.sum_sent.bytes"}},
	"cpu.prime":   {"duration": "50ms", "max_prime": 2000},
	"cpu.linpack": {"n": 60, "repeats": 2},
	"mem.stream":  {"array_size": 10000, "ntimes": 3},
	"mem.mbw":     {"size": "1MiB", "block_size": "64KiB", "iterations": 2},
	"disk.seq":    {"size": "1MiB", "block_size": "64KiB"},
	"disk.rand":   {"size": "1MiB", "duration": "50ms"},
	"sys.idle":    {"duration": "10ms"},
	"load.mixed":  {"level": "high", "duration": "300ms", "vm_bytes": "1MiB", "hdd_bytes": "1MiB"},
	"net.tcp":     {"duration": "100ms"},
	"net.udp":     {"duration": "100ms", "rate": "10mbit"},
	"net.rr":      {"duration": "100ms"},
	"iot.ingest":  {"duration": "200ms", "devices": 10, "nodes": 2},
	"mqtt.pub":    {"duration": "100ms", "subscribers": 1}, // every metric: subscribers give e2e_*

	"rt.periodic":    {"duration": "100ms", "frequency_hz": 200, "policy": "other", "lock_memory": false},
	"rt.periodic-io": {"duration": "200ms", "frequency_hz": 50, "policy": "other", "lock_memory": false, "frame": "64x48"},
	"load.cpu":       {"duration": "100ms", "workers": 1, "period": "10ms", "policy": "other", "priority": 0},
	"load.stress-ng": {"duration": "1s", "workers": 1, "load_pct": 10, "policy": "other", "priority": 0},

	"http.gateway": {"duration": "200ms", "clients": 2},

	"disk.iozone": {"threads": 2, "file_size": "256KiB", "record_size": "32KiB"},
	// NPB's smallest class S is fixed by its verification values: 0.1 to 4 s.
	"npb.is": {"class": "S"},
	"npb.ep": {"class": "S"},
	"npb.cg": {"class": "S"},
	"npb.mg": {"class": "S"},
	"npb.ft": {"class": "S"},
}

// needsTool names the program a workload runs, which .ci/run installs,
// and its Debian package.
var needsTool = map[string]struct{ program, debianPackage string }{
	"cmd.server":     {"iperf3", "iperf3"},
	"load.stress-ng": {"stress-ng", "stress-ng"},
	"iot.ingest":     {"/usr/sbin/nginx", "nginx-light"},
}

func TestBuiltinsRegistered(t *testing.T) {
	got := strings.Join(workload.Names(), " ")
	for name := range tinyParams {
		if _, err := workload.Lookup(name); err != nil {
			t.Errorf("%s is not registered (registered: %s)", name, got)
		}
	}
}

func TestInfo(t *testing.T) {
	for _, w := range workload.All() {
		info := w.Info()
		t.Run(info.Name, func(t *testing.T) {
			if info.Summary == "" || info.SeedTool == "" {
				t.Errorf("summary %q, seed tool %q: both are needed", info.Summary, info.SeedTool)
			}
			if len(info.Metrics) == 0 {
				t.Fatal("no metrics")
			}
			seen := map[string]bool{}
			for _, m := range info.Metrics {
				if m.Name == "" || m.Unit == "" || m.Label == "" || m.Description == "" {
					t.Errorf("metric %+v lacks a name, unit, label or description", m)
				}
				if seen[m.Name] {
					t.Errorf("metric %s declared twice", m.Name)
				}
				seen[m.Name] = true
			}
			required := false
			for _, p := range info.Params {
				if p.Name == "" || p.Default == nil || p.Description == "" {
					t.Errorf("param %+v lacks a name, default or description", p)
				}
				required = required || p.Required
			}
			_, _, err := workload.Prepare(w, nil)
			switch {
			case required && (err == nil || !strings.Contains(err.Error(), "is required")):
				t.Errorf("a required parameter left out: %v, want an error saying it is required", err)
			case !required && err != nil:
				t.Errorf("the defaults are rejected: %v", err)
			}
		})
	}
}

// TestRunEmitsEveryMetricOnce runs every workload with tiny parameters
// (the rest at their defaults) and checks that each declared metric was
// sampled exactly once with a finite positive value, and nothing else.
func TestRunEmitsEveryMetricOnce(t *testing.T) {
	for _, w := range workload.All() {
		info := w.Info()
		t.Run(info.Name, func(t *testing.T) {
			if _, ok := w.(interface{ ControllerMeasured() }); ok {
				t.Skip("the controller measures this workload around the worker; its end-to-end test covers it")
			}
			if tool, ok := needsTool[info.Name]; ok {
				testenv.RequireTool(t, tool.program, tool.debianPackage)
			}
			tiny, ok := tinyParams[info.Name]
			if !ok {
				t.Fatalf("no tiny parameters for %s: add them to tinyParams", info.Name)
			}
			p := workloadtest.Check(t, info, tiny)
			var r workloadtest.Recorder
			if err := workload.Run(context.Background(), w, p, workload.Env{ScratchDir: t.TempDir()}, &r); err != nil {
				t.Fatalf("Run: %v", err)
			}
			declared := workload.MetricsOf(w, p)
			for _, m := range declared {
				v := r.Samples[m.Name]
				if len(v) != 1 {
					t.Errorf("%s sampled %d times, want once", m.Name, len(v))
					continue
				}
				// A cost may be nothing (no datagram lost); a rate may not.
				if math.IsNaN(v[0]) || math.IsInf(v[0], 0) || v[0] < 0 || (v[0] == 0 && m.HigherIsBetter) {
					t.Errorf("%s = %v, want finite and positive (or zero for a cost)", m.Name, v[0])
				}
			}
			for name := range r.Samples {
				if !slices.ContainsFunc(declared, func(m workload.Metric) bool { return m.Name == name }) {
					t.Errorf("sample of undeclared metric %s", name)
				}
			}
			for k, v := range r.Notes {
				if k == "" || v == "" {
					t.Errorf("empty note %q = %q", k, v)
				}
			}
		})
	}
}
