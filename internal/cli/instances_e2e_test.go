package cli

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestInstancesRunConcurrentlyAndAggregate(t *testing.T) {
	requireDocker(t)
	dir := t.TempDir()
	res := runIn(t, dir, "run", testdata(t, "instances.yaml"), "--settle", "0", "--quiet")
	if res.code != ExitOK {
		t.Fatalf("run: exit %d\n%s", res.code, res.stderr)
	}
	rep := runIn(t, dir, "report", "--format", "json")
	var doc struct {
		Cells []struct {
			Env    string            `json:"env"`
			Levels map[string]string `json:"levels"`
			Metric string            `json:"metric"`
			Mean   float64           `json:"mean"`
		} `json:"cells"`
	}
	if err := json.Unmarshal([]byte(rep.stdout), &doc); err != nil {
		t.Fatal(err)
	}
	rate := map[string]float64{}
	for _, c := range doc.Cells {
		if c.Metric == "events_per_s" {
			rate[c.Env+"/"+c.Levels["instances"]] = c.Mean
		}
	}
	for _, e := range []string{"native", "docker-host"} {
		one, two := rate[e+"/1"], rate[e+"/2"]
		// Two instances on two CPUs: the run's events/s is the sum of both,
		// so clearly more than one alone (not exactly 2x on a shared VM).
		if one <= 0 || two < 1.3*one {
			t.Errorf("%s: 1 instance %.0f events/s, 2 instances %.0f: want the sum of both instances", e, one, two)
		}
	}
	csv := runIn(t, dir, "report", "--format", "csv").stdout
	if !strings.Contains(csv, ",instance,") || !strings.Contains(csv, ",2,events_per_s,") {
		t.Errorf("csv lacks per-instance rows:\n%s", csv)
	}
}
