package report

import (
	"bytes"
	"testing"

	"github.com/boxtax/boxtax/internal/report/testdata/testfixture"
	_ "github.com/boxtax/boxtax/internal/workload/all" // the real workloads: the comparison's labels and metric order
)

const piHost = `{"hostname":"pi4","cpus":4,"cpu_model":"Cortex-A72","kernel_release":"6.6.31-v8","docker":{"server_version":"26.1.4","storage_driver":"overlay2"}}`

// comparison is the EPYC study against a slower Pi study whose docker-bridge
// costs more and which has no net.rr.
func comparison() *Comparison {
	return Compare([]string{"epyc.db", "pi.db:2"}, []*Report{quickish(), quickishOn(2, piHost, 0.1, 0.9, false)})
}

func TestCompareKeepsSharedCellsOnly(t *testing.T) {
	c := comparison()
	// mem.stream 4 metrics + disk.seq 3 metrics, in 3 envs.
	if len(c.Rows) != 21 {
		t.Errorf("%d shared rows, want 21", len(c.Rows))
	}
	// net.rr: 4 metrics x 3 envs only in A.
	if c.Unmatched[0] != 12 || c.Unmatched[1] != 0 {
		t.Errorf("unmatched %v, want [12 0]", c.Unmatched)
	}
	for _, row := range c.Rows {
		a, b := row.Values[0], row.Values[1]
		if a.DiffPct != nil || b.DiffPct == nil || !b.BeyondNoise {
			t.Errorf("%s %s %s: reference %+v, other %+v", row.Workload, row.Env, row.Metric, a, b)
			continue
		}
		want := map[string]float64{"native": -90, "docker-bridge": -90.7, "docker-host": -90}[row.Env]
		if d := *b.DiffPct - want; d > 0.1 || d < -0.1 {
			t.Errorf("%s %s: B vs A %.2f%%, want about %.1f%%", row.Metric, row.Env, *b.DiffPct, want)
		}
	}
}

func TestComparisonMatchesGoldenFiles(t *testing.T) {
	for _, format := range CompareFormats() {
		t.Run(format, func(t *testing.T) {
			checkGolden(t, "compare."+format, func(buf *bytes.Buffer) error { return WriteComparison(buf, format, comparison()) })
		})
	}
	if err := WriteComparison(&bytes.Buffer{}, "yaml", comparison()); err == nil {
		t.Error("unknown format accepted")
	}
}

const epycHost = testfixture.EpycHost

// quickish is a study of mem.stream, disk.seq and net.rr over TCP, with
// three runs per cell in every environment (testfixture.Quickish).
func quickish() *Report { return quickishOn(1, epycHost, 1, 0.97, true) }

// quickishOn is quickish on another host (testfixture.QuickishOn).
func quickishOn(id int64, host string, speed, bridge float64, withNet bool) *Report {
	f := testfixture.QuickishOn(id, host, speed, bridge, withNet)
	return Build(f.Study, Layout{Baseline: f.Baseline, Envs: f.Envs, Workloads: f.Workloads}, f.Runs, f.Samples)
}
