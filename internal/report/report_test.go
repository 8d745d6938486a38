package report

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
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
func (fakeWL) Configure(workload.Params) (workload.Config, error)        { return fakeWL{}, nil }
func (fakeWL) Run(context.Context, workload.Env, workload.Emitter) error { return nil }

// fakeRT is a periodic task: its slice splits into parts, its latency is
// reported as percentiles and as a series of every slice.
type fakeRT struct{}

func (fakeRT) Info() workload.Info {
	return workload.Info{Name: "test.rt", Summary: "a periodic task", Metrics: []workload.Metric{
		{Name: "wake_ms", Unit: "ms", Label: "wake-up ms"},
		{Name: "compute_ms", Unit: "ms", Label: "compute ms"},
		{Name: "sleep_ms", Unit: "ms", Label: "sleep ms"},
		{Name: "lat_p50_us", Unit: "µs", Label: "p50 µs"},
		{Name: "lat_p99_us", Unit: "µs", Label: "p99 µs"},
		{Name: "lat_max_us", Unit: "µs", Label: "max µs"},
	}}
}
func (fakeRT) Configure(workload.Params) (workload.Config, error)        { return fakeRT{}, nil }
func (fakeRT) Run(context.Context, workload.Env, workload.Emitter) error { return nil }
func (fakeRT) MetricParts() map[string][]string {
	return map[string][]string{"time slice": {"wake_ms", "compute_ms", "sleep_ms"}}
}

func init() {
	workload.Register(fakeWL{})
	workload.Register(fakeRT{})
}

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

// factorial is a study with a numeric factor (threads 1, 2, 4) on test.cpu,
// and test.rt with parts, percentiles and a series; five runs per cell, one
// of them an outlier.
func factorial() *Report {
	st := store.Study{ID: 3, Name: "factorial", Status: store.StudyFinished, Seed: 42,
		CreatedAt: time.Date(2026, 11, 22, 8, 30, 0, 0, time.UTC),
		HostJSON:  `{"hostname":"pi","os":"linux","arch":"arm64","cpus":4,"cpu_model":"Cortex-A72","mem_total_bytes":4294967296,"kernel_release":"6.6.0-rt","preemption":"PREEMPT_RT","realtime_kernel":true,"docker":{"server_version":"24.0.7","api_version":"1.43","storage_driver":"overlay2","cgroup_version":"2","cgroup_driver":"systemd"},"boxtax_version":"v0.3.0"}`,
		SpecYAML:  "name: factorial\nfactors:\n  - {name: threads, levels: [1, 2, 4], workloads: [test.cpu]}\n"}
	var runs []store.Run
	var samples []store.Sample
	envs := []string{"native", "docker-bridge", "docker-host"}
	envFactor := map[string]float64{"native": 1, "docker-bridge": 0.97, "docker-host": 0.995}
	start := time.Date(2026, 11, 22, 8, 30, 0, 0, time.UTC)
	add := func(wl, env string, levels map[string]string, metrics map[string]float64, units map[string]string) int64 {
		id := int64(len(runs) + 1)
		key := wl
		lv := map[string]string{"env": env}
		for k, v := range levels {
			lv[k] = v
			key += "|" + k + "=" + v
		}
		key += "|env=" + env
		runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: key, Workload: wl, Env: env, Levels: lv, Status: store.RunOK,
			Started: start.Add(time.Duration(id) * time.Second), Ended: start.Add(time.Duration(id)*time.Second + 900*time.Millisecond)})
		for _, m := range sortedKeys(metrics) {
			samples = append(samples, store.Sample{RunID: id, Metric: m, Value: metrics[m], Unit: units[m]})
		}
		return id
	}
	jitter := []float64{-0.01, 0.005, 0, 0.01, -0.004}
	for rep := range 5 {
		for _, env := range envs {
			for _, th := range []string{"1", "2", "4"} {
				n := map[string]float64{"1": 1, "2": 1.9, "4": 3.1}[th]
				v := 1000 * n * envFactor[env] * (1 + jitter[rep])
				if rep == 4 && env == "docker-host" && th == "4" {
					v *= 0.6 // an outlier
				}
				add("test.cpu", env, map[string]string{"threads": th}, map[string]float64{"events_per_s": v, "time_s": 3}, map[string]string{"events_per_s": "events/s", "time_s": "s"})
			}
			f := envFactor[env]
			add("test.rt", env, nil, map[string]float64{
				"wake_ms": 0.05 / f * (1 + jitter[rep]), "compute_ms": 8, "sleep_ms": 1.95 - 0.05/f,
				"lat_p50_us": 50 / f * (1 + jitter[rep]), "lat_p99_us": 120 / f, "lat_max_us": 400 / f * (1 - jitter[rep]),
			}, map[string]string{"wake_ms": "ms", "compute_ms": "ms", "sleep_ms": "ms", "lat_p50_us": "µs", "lat_p99_us": "µs", "lat_max_us": "µs"})
		}
	}
	r := Build(st, Layout{Baseline: "native", Envs: envs, Workloads: []string{"test.cpu", "test.rt"}}, runs, samples)
	for _, run := range runs {
		if run.Workload != "test.rt" {
			continue
		}
		vals := make([]float64, 400)
		for i := range vals {
			vals[i] = (40+float64(i%97)+float64(i%13)*3)/envFactor[run.Env] + float64(run.ID%3)
		}
		r.AddSeries(store.Series{RunID: run.ID, Name: "latency_us", Unit: "µs", Values: vals})
	}
	return r
}

// fixtures are the reports every format is checked against.
var fixtures = map[string]func() *Report{"fixture": fixture, "factorial": factorial}

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

func TestEffectSizesOfTheRuns(t *testing.T) {
	// One-way: native 1000, 1010, 990 against docker-bridge 950, 960, 940.
	// SS_env = 3 (25² + 25²) = 3750, SS_res = 400 on 4 df: F = 37.5.
	effects := fixture().Effects
	var env *Effect
	for i := range effects {
		if effects[i].Metric == "events_per_s" {
			env = &effects[i]
		}
	}
	if env == nil || env.Term != "env" || env.DF != 1 || env.DFResidual != 4 {
		t.Fatalf("effects %+v", effects)
	}
	if math.Abs(*env.F-37.5) > 1e-9 || math.Abs(*env.EtaSq-3750.0/4150) > 1e-12 || math.Abs(*env.PartialEtaSq-3750.0/4150) > 1e-12 {
		t.Errorf("F %v, eta² %v, partial %v", *env.F, *env.EtaSq, *env.PartialEtaSq)
	}
	// pf(37.5, 1, 4, lower.tail = FALSE) = P(|T_4| > sqrt(37.5)) = 0.0036022...
	if math.Abs(*env.P-0.0036022) > 1e-7 {
		t.Errorf("p %v", *env.P)
	}
	// Factorial: env, threads and their interaction for test.cpu.
	var terms []string
	for _, e := range factorial().Effects {
		if e.Workload == "test.cpu" {
			terms = append(terms, e.Term)
		}
	}
	if strings.Join(terms, ",") != "env,threads,env:threads" {
		t.Errorf("test.cpu terms %v", terms)
	}
}

func TestFormatsMatchGoldenFiles(t *testing.T) {
	for _, name := range []string{"fixture", "factorial"} {
		for _, format := range Formats() {
			t.Run(name+"/"+format, func(t *testing.T) {
				checkGolden(t, name+"."+format, func(buf *bytes.Buffer) error { return Write(buf, format, fixtures[name]()) })
			})
		}
	}
}

// checkGolden compares what write prints with testdata/NAME.golden.
func checkGolden(t *testing.T, name string, write func(*bytes.Buffer) error) {
	t.Helper()
	testenv.GoldenWrite(t, name, *update, write)
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
	if err == nil || !strings.Contains(err.Error(), "csv, html, json, latex, markdown, table") {
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
