package ingest

import (
	"context"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// requirePrograms ends a test whose real programs are absent as
// testenv.Missing does.
func requirePrograms(t *testing.T, paths ...string) {
	t.Helper()
	for _, p := range paths {
		testenv.RequireTool(t, p, map[string]string{redisServer: "redis-server", nginxBin: "nginx-light"}[p])
	}
}

func TestRunReportsEveryMetric(t *testing.T) {
	requirePrograms(t, redisServer, nginxBin)
	p := workloadtest.Prepare(t, Ingest, workload.Params{"duration": "1s", "devices": 50, "nodes": 2})
	r := workloadtest.Run(t, context.Background(), Ingest, p, workload.Env{})
	t.Log(r.String())
	for _, m := range (Ingest).Info().Metrics {
		if len(r.Samples[m.Name]) != 1 {
			t.Errorf("%s sampled %d times, want once", m.Name, len(r.Samples[m.Name]))
		}
	}
	if !strings.Contains(r.Notes["node_messages"], "1:") || !strings.Contains(r.Notes["node_messages"], "2:") {
		t.Errorf("node_messages %q: want both nodes", r.Notes["node_messages"])
	}
}

func TestOneCPUMakesAffinityMoot(t *testing.T) {
	requirePrograms(t, redisServer, nginxBin)
	before, err := cpuset.Parse(cpuset.Allowed())
	if err != nil || len(before) < 2 {
		t.Skipf("needs 2 CPUs to pin to one: %s", cpuset.Allowed())
	}
	if err := cpuset.PinProcess(before[:1]); err != nil {
		t.Fatal(err)
	}
	defer cpuset.PinProcess(before)
	p := workloadtest.Prepare(t, Ingest, workload.Params{"duration": "200ms", "devices": 5, "nodes": 2})
	r := workloadtest.Run(t, context.Background(), Ingest, p, workload.Env{})
	if !strings.Contains(r.Notes["server.affinity_moot"], "placement") || r.Notes["server.node_cpus"] != "1:"+before[:1].String()+" 2:"+before[:1].String() {
		t.Errorf("on one CPU: %v", r.String())
	}
}
