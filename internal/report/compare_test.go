package report

import (
	"bytes"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report/testdata/testfixture"
	"github.com/boxtax/boxtax/internal/store"
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

// TestCompareNamesCellsThatRanOtherWork: issue 27, two --cmd studies of
// different commands were one cell (+12060.9 %); the comparison now lists
// the parameter that differs, and a program found in another directory
// is not a difference.
func TestCompareNamesCellsThatRanOtherWork(t *testing.T) {
	study := func(id int64, cmd ...any) *Report {
		st := store.Study{ID: id, Name: "cmd", Status: store.StudyFinished, HostJSON: epycHost, SpecYAML: "name: cmd\n"}
		var runs []store.Run
		var samples []store.Sample
		for i, env := range []string{"native", "native", "docker-bridge", "docker-bridge"} {
			runs = append(runs, store.Run{ID: int64(i + 1), Seq: i, CellKey: "cmd|env=" + env, Workload: "cmd", Env: env,
				Levels: map[string]string{"env": env}, Params: map[string]any{"cmd": cmd, "timeout": "10m"}, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: int64(i + 1), Metric: "wall_s", Value: 1 + float64(i%2)/10, Unit: "s"})
		}
		return Build(st, Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}}, runs, samples)
	}
	gzip := study(1, "/usr/bin/gzip", "-c", "/data/go")
	same := Compare([]string{"1", "2"}, []*Report{gzip, study(2, "/bin/gzip", "-c", "/data/go")})
	if len(same.Rows) != 2 || len(same.Differences) != 0 {
		t.Errorf("the same command from another directory: %d rows, differences %v", len(same.Rows), same.Differences)
	}
	other := Compare([]string{"1", "3"}, []*Report{gzip, study(3, "/usr/bin/xz", "-c", "/data/go")})
	if len(other.Differences) != 1 {
		t.Fatalf("differences %v, want one: cmd", other.Differences)
	}
	d := other.Differences[0]
	if want := `cmd: parameter cmd is [gzip -c /data/go] in A, [xz -c /data/go] in B`; strings.Replace(d.String(), "/usr/bin/", "", 2) != want {
		t.Errorf("difference %q, want %q", d.String(), want)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, "table", other); err != nil || !strings.Contains(buf.String(), "Not the same work: cmd: parameter cmd") {
		t.Errorf("the table does not say what differs: %v\n%s", err, buf.String())
	}
}
