package report

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

var update = flag.Bool("update", false, "rewrite the golden files")

type fakeWL struct{}

func (fakeWL) Info() workload.Info {
	return workload.Info{Name: "test.cpu", Metrics: []workload.Metric{
		{Name: "events_per_s", Unit: "events/s", Label: "events/s", HigherIsBetter: true},
		{Name: "time_s", Unit: "s", Label: "time s", Secondary: true},
	}}
}
func (fakeWL) Run(context.Context, workload.Params, workload.Env, workload.Emitter) error { return nil }

func init() { workload.Register(fakeWL{}) }

// fixture is a small study: two envs, three measured runs each, one warm-up,
// one failed run, and a name that must be escaped.
func fixture() *Report {
	st := store.Study{ID: 7, Name: "demo <b>|x", Status: store.StudyFinished, Seed: 1,
		CreatedAt: time.Date(2026, 11, 21, 5, 0, 0, 0, time.UTC),
		HostJSON:  `{"hostname":"box","cpus":2,"cpu_model":"Test CPU","mem_total_bytes":2147483648,"kernel_release":"6.1.0"}`,
		SpecYAML:  "name: demo\n"}
	var runs []store.Run
	var samples []store.Sample
	add := func(env string, warm bool, status string, vals ...float64) {
		id := int64(len(runs) + 1)
		runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: "test.cpu|env=" + env, Workload: "test.cpu", Env: env,
			Levels: map[string]string{"env": env}, Warmup: warm, Status: status, Reason: map[bool]string{true: "", false: "worker: exit status 1"}[status == store.RunOK]})
		for _, v := range vals {
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: v, Unit: "events/s"}, store.Sample{RunID: id, Metric: "time_s", Value: 3, Unit: "s"})
		}
	}
	add("native", true, store.RunOK, 900)

	for _, v := range []float64{1000, 1010, 990} {
		add("native", false, store.RunOK, v)
	}
	for _, v := range []float64{950, 960, 940} {
		add("docker-bridge", false, store.RunOK, v)
	}
	add("docker-bridge", false, store.RunFailed)
	runs[1].Notes = map[string]string{"fs_warning": "reads may come from <memory>"}
	runs[2].Settings = map[string]string{"settle": "host still 80% busy"}
	return Build(st, Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"test.cpu"}}, runs, samples)
}

func TestBuildComputesOverheadAgainstBaseline(t *testing.T) {
	r := fixture()
	var native, bridge *Cell
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Metric != "events_per_s" {
			continue
		}
		switch c.Env {
		case "native":
			native = c
		case "docker-bridge":
			bridge = c
		}
	}
	if native == nil || bridge == nil {
		t.Fatalf("cells missing: %+v", r.Cells)
	}
	if native.N != 3 || native.Mean != 1000 || native.OverheadPct != nil || !native.IsBaseline {
		t.Errorf("baseline cell wrong (warm-up must be excluded): %+v", native)
	}
	if bridge.N != 3 || *bridge.OverheadPct != -5 || !bridge.Significant {
		t.Errorf("bridge overhead wrong: %+v", bridge)
	}
	lo, hi := *bridge.OverheadCI95[0], *bridge.OverheadCI95[1]
	if !(lo < -5 && -5 < hi && hi < 0) {
		t.Errorf("interval [%v, %v] should hold -5 and exclude 0", lo, hi)
	}
	if r.Runs.Failed != 1 || r.Runs.Warmup != 1 || r.Runs.OK != 6 || len(r.Failures) != 1 {
		t.Errorf("run counts %+v", r.Runs)
	}
}

func TestFormatsMatchGoldenFiles(t *testing.T) {
	for _, format := range Formats() {
		t.Run(format, func(t *testing.T) {
			var buf bytes.Buffer
			if err := Write(&buf, format, fixture()); err != nil {
				t.Fatal(err)
			}
			golden := filepath.Join("testdata", "fixture."+format+".golden")
			if *update {
				if err := os.WriteFile(golden, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(buf.Bytes(), want) {
				t.Errorf("%s output differs from %s (go test -update rewrites it):\n%s", format, golden, buf.String())
			}
		})
	}
}

func TestJSONFollowsSchemaV1(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "json", fixture()); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Schema string `json:"schema"`
		Study  struct {
			ID   int64           `json:"id"`
			Name string          `json:"name"`
			Host json.RawMessage `json:"host"`
		} `json:"study"`
		Cells []map[string]any `json:"cells"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != "boxtax.report/v1" || doc.Study.ID != 7 || !strings.Contains(string(doc.Study.Host), "Test CPU") {
		t.Errorf("header wrong: %+v", doc)
	}
	for _, key := range []string{"workload", "env", "levels", "metric", "unit", "n", "mean", "std", "median", "baseline", "overhead_pct", "overhead_ci95"} {
		if _, ok := doc.Cells[0][key]; !ok {
			t.Errorf("cell lacks %q", key)
		}
	}
}

func TestUnknownFormatListsValidOnes(t *testing.T) {
	err := Write(&bytes.Buffer{}, "yaml", fixture())
	if err == nil || !strings.Contains(err.Error(), "csv, json, markdown, table") {
		t.Fatalf("error %v", err)
	}
}

func TestMarkdownEscapesUserText(t *testing.T) {
	var buf bytes.Buffer
	if err := Write(&buf, "markdown", fixture()); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "<b>") || !strings.Contains(buf.String(), `&lt;b&gt;\|x`) {
		t.Errorf("study name not escaped:\n%s", buf.String())
	}
}
