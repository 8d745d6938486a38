package ingest

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

func TestNodeCPUs(t *testing.T) {
	two, four := cpuset.Set{0, 1}, cpuset.Set{0, 1, 2, 3}
	for _, tc := range []struct {
		cpus     cpuset.Set
		nodes    int
		affinity string
		want     string
	}{
		{two, 2, "dedicated", "0 1"},
		{two, 2, "shared", "0-1 0-1"},
		{two, 5, "dedicated", "0 0 0 1 1"},
		{two, 7, "dedicated", "0 0 0 0 1 1 1"},
		{two, 5, "shared", "0-1 0-1 0-1 0-1 0-1"},
		{four, 2, "dedicated", "0-1 2-3"},
		{four, 3, "dedicated", "0 1 2-3"},
		{cpuset.Set{0}, 2, "dedicated", "0 0"},
	} {
		got, err := nodeCPUs(tc.cpus, tc.nodes, tc.affinity)
		if err != nil {
			t.Fatal(err)
		}
		if s := strings.Join(got, " "); s != tc.want {
			t.Errorf("%d nodes %s on %s: %s, want %s", tc.nodes, tc.affinity, tc.cpus, s, tc.want)
		}
	}
}

func TestBadParametersNameTheValidValues(t *testing.T) {
	workloadtest.Refuses(t, Ingest, []workloadtest.Refusal{
		{Params: workload.Params{"affinity": "pinned"}, Want: "dedicated"},
		{Params: workload.Params{"devices": 0}, Want: "1 to 20000"},
		{Params: workload.Params{"nodes": 100}, Want: "1 to 64"},
		{Params: workload.Params{"duration": "0s"}, Want: "positive"},
		{Params: workload.Params{"payload": 1000}, Want: "1 to 400"},
		{Params: workload.Params{"target": "wrk"}, Want: "nginx"},
		{Params: workload.Params{"warmup": -1}, Want: "0 to 1000"},
	})
}

func TestRequirementsNameTheRealPrograms(t *testing.T) {
	p, _, _ := workload.Prepare(Ingest, workload.Params{"devices": 3000})
	r := workloadtest.Requirements(t, Ingest, p)
	if strings.Join(r.HostPrograms, " ") != redisServer+" "+nginxBin {
		t.Errorf("host programs %v", r.HostPrograms)
	}
	if r.Ulimits["nofile"] < 3000*2 {
		t.Errorf("nofile %d: too few for 3000 devices through nginx", r.Ulimits["nofile"])
	}
	p, _, _ = workload.Prepare(Ingest, workload.Params{"target": "sink"})
	if r := workloadtest.Requirements(t, Ingest, p); len(r.HostPrograms) != 0 {
		t.Errorf("the sink needs no programs, got %v", r.HostPrograms)
	}
}
