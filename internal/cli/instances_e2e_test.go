package cli

import (
	"encoding/csv"
	"math"
	"strconv"
	"strings"
	"testing"
)

// TestInstancesRunConcurrentlyAndAggregate checks that two instances ran as
// two workers (natively and in containers) and that the run's figure is the
// sum of theirs for a throughput; how fast they were depends on the host.
func TestInstancesRunConcurrentlyAndAggregate(t *testing.T) {
	dir, _ := dockerStudy(t, testdata(t, "instances.yaml"), "--settle", "0", "--quiet")
	rows, err := csv.NewReader(strings.NewReader(runIn(t, dir, "report", "--format", "csv").stdout)).ReadAll()
	if err != nil || len(rows) < 2 {
		t.Fatalf("csv: %v", err)
	}
	col := map[string]int{}
	for i, h := range rows[0] {
		col[h] = i
	}
	type key struct{ run, instance string }
	rate := map[key]float64{}
	instancesOf := map[string]string{}
	envOf := map[string]string{}
	for _, r := range rows[1:] {
		if r[col["metric"]] != "events_per_s" {
			continue
		}
		v, _ := strconv.ParseFloat(r[col["value"]], 64)
		rate[key{r[col["run_id"]], r[col["instance"]]}] = v
		instancesOf[r[col["run_id"]]] = r[col["instances"]]
		envOf[r[col["run_id"]]] = r[col["env"]]
	}
	seen := map[string]bool{}
	for run, n := range instancesOf {
		total, ok := rate[key{run, "0"}]
		if !ok || total <= 0 {
			t.Errorf("run %s (%s, %s instances) has no figure", run, envOf[run], n)
			continue
		}
		if n == "1" {
			continue
		}
		one, two := rate[key{run, "1"}], rate[key{run, "2"}]
		if one <= 0 || two <= 0 || math.Abs(one+two-total) > 1e-6*total {
			t.Errorf("run %s (%s): instances %v + %v, figure %v: want the sum", run, envOf[run], one, two, total)
		}
		seen[envOf[run]] = true
	}
	if !seen["native"] || !seen["docker-host"] {
		t.Errorf("two-instance runs seen in %v, want native and docker-host", seen)
	}
}
