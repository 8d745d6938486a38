package analysis

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/testenv"
	_ "github.com/boxtax/boxtax/internal/workload/rt" // rt.periodic's metrics
)

const testSpec = `name: rt-test
repetitions: 2
warmup: 0
envs: [native, docker-host]
workloads: [rt.periodic]
factors:
  - name: load
    levels: [none, cpu]
    background:
      none:
      cpu: {workload: load.cpu}
`

// opened reads the study makeStudy stored in each database.
func opened(t *testing.T, dbs ...*store.Store) []*study.Stored {
	t.Helper()
	var out []*study.Stored
	for _, db := range dbs {
		s, err := study.Open(context.Background(), db, 1)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, s)
	}
	return out
}

// makeStudy stores a finished study of rt.periodic, 2 envs x 2 loads x 2
// runs of 50 slices, on a kernel described by host JSON. The work takes
// longer with load and, on an rt kernel, the sleep is shorter.
func makeStudy(t *testing.T, path, hostJSON string, rt bool) *store.Store {
	t.Helper()
	ctx := context.Background()
	db := testenv.OpenStore(t, path)
	var runs []store.Run
	for rep := 0; rep < 2; rep++ {
		for _, env := range []string{"native", "docker-host"} {
			for _, load := range []string{"none", "cpu"} {
				runs = append(runs, store.Run{Seq: len(runs), CellKey: env + load, Workload: "rt.periodic", Env: env,
					Levels: map[string]string{"env": env, "load": load}, Params: map[string]any{}, Rep: rep})
			}
		}
	}
	runs = append(runs, store.Run{Seq: len(runs), CellKey: "w", Workload: "rt.periodic", Env: "native",
		Levels: map[string]string{"env": "native", "load": "none"}, Params: map[string]any{}, Warmup: true})
	st := &store.Study{Name: "rt-test", SpecYAML: testSpec, Seed: 1, HostJSON: hostJSON}
	if err := db.CreateStudy(ctx, st, runs); err != nil {
		t.Fatal(err)
	}
	for i := range runs {
		r := &runs[i]
		r.Status = store.RunOK
		var series []store.Series
		for k, name := range []string{"oh1_ns", "work_ns", "oh2_ns", "sleep_ns", "latency_ns"} {
			v := make([]float64, 50)
			for s := range v {
				noise := float64((s*7919+i*104729+k*31)%1000) - 500
				switch name {
				case "oh1_ns", "oh2_ns", "latency_ns":
					v[s] = 100 + noise/10
				case "work_ns":
					v[s] = 8e6 + noise*100
					if r.Levels["load"] == "cpu" {
						v[s] += 3e5
					}
				case "sleep_ns":
					v[s] = 2e6 - noise*50
					if rt {
						v[s] -= 4e5
					}
				}
			}
			series = append(series, store.Series{Name: name, Unit: "ns", Values: v})
		}
		samples := []store.Sample{{Metric: "violations_pct", Value: float64(i), Unit: "%"}, {Metric: "latency_p99_us", Value: 50, Unit: "us"}}
		if err := db.FinishRun(ctx, r, samples, series); err != nil {
			t.Fatal(err)
		}
	}
	return db
}

func TestFromTwoKernels(t *testing.T) {
	dir := t.TempDir()
	vanilla := makeStudy(t, filepath.Join(dir, "v.db"), `{"kernel_release":"6.1.0","preemption":"PREEMPT_DYNAMIC","realtime_kernel":false}`, false)
	rt := makeStudy(t, filepath.Join(dir, "rt.db"), `{"kernel_release":"6.1.0-rt","preemption":"PREEMPT_RT","realtime_kernel":true}`, true)
	ds, err := FromStudies(context.Background(), opened(t, rt, vanilla), StudyOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 2 || ds[0].Unit != PerSlice || ds[1].Unit != PerRun {
		t.Fatalf("%d datasets", len(ds))
	}
	slice, run := ds[0], ds[1]
	if slice.Cells.N() != 800 || run.Cells.N() != 16 || slice.Runs != 16 {
		t.Errorf("%v slices, %v runs", slice.Cells.N(), run.Cells.N())
	}
	var factors []string
	for _, f := range slice.Factors() {
		factors = append(factors, f.Name+"="+strings.Join(f.Levels, "|"))
	}
	if got := strings.Join(factors, " "); got != "env=native|docker-host kernel=vanilla|rt load=none|cpu" {
		t.Errorf("factors %s", got)
	}
	if slice.DefaultModel != "env + kernel + load + env:kernel" {
		t.Errorf("default model %q", slice.DefaultModel)
	}
	r, err := Analyze(t.Context(), slice, "")
	if err != nil {
		t.Fatal(err)
	}
	// The sleep falls by 4e5 ns on the rt kernel: kernelrt's coefficient.
	for _, c := range r.Coefficients["sleep_ns"] {
		if c.Name == "kernelrt" && math.Abs(c.Estimate+4e5) > 1e3 {
			t.Errorf("kernelrt on sleep: %v, want about -4e5", c.Estimate)
		}
		if c.Name == "loadcpu" && math.Abs(c.Estimate) > 1e3 {
			t.Errorf("loadcpu on sleep: %v, want about 0", c.Estimate)
		}
	}
	if r.Deadlines == nil || len(r.Deadlines.Rows) != 8 || r.Deadlines.Rows[0].Runs != 2 {
		t.Errorf("deadlines %+v", r.Deadlines)
	}
	if len(r.Manova["Pillai"]) != 4 {
		t.Errorf("MANOVA terms %+v", r.Manova["Pillai"])
	}
	rr, err := Analyze(t.Context(), run, "")
	if err != nil {
		t.Fatal(err)
	}
	if rr.N != 16 || rr.ResidualDF != 11 || rr.Deadlines != nil {
		t.Errorf("per run: n %v, residual df %v", rr.N, rr.ResidualDF)
	}
	if !strings.Contains(strings.Join(r.Notes, "\n"), "6.1.0-rt (PREEMPT_RT), a PREEMPT_RT kernel") {
		t.Errorf("notes %v", r.Notes)
	}
}

func TestKernelReleaseWhenKindsAgree(t *testing.T) {
	dir := t.TempDir()
	a := makeStudy(t, filepath.Join(dir, "a.db"), `{"kernel_release":"6.1.0","realtime_kernel":false}`, false)
	b := makeStudy(t, filepath.Join(dir, "b.db"), `{"kernel_release":"6.12.0","realtime_kernel":false}`, true)
	ds, err := FromStudies(context.Background(), opened(t, a, b), StudyOptions{References: map[string]string{"kernel": "6.12.0"}})
	if err != nil {
		t.Fatal(err)
	}
	if k := ds[0].Factors()[1]; fmt.Sprint(k.Levels) != "[6.12.0 6.1.0]" {
		t.Errorf("kernel levels %v", k.Levels)
	}
}

func TestFromOneStudy(t *testing.T) {
	db := makeStudy(t, filepath.Join(t.TempDir(), "one.db"), `{"kernel_release":"6.18","realtime_kernel":false}`, false)
	ds, err := FromStudies(context.Background(), opened(t, db), StudyOptions{RunsOnly: true, Responses: []string{"work_ns", "violations_pct"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 1 || ds[0].Unit != PerRun || ds[0].DefaultModel != "env + load" {
		t.Fatalf("%d datasets, model %q", len(ds), ds[0].DefaultModel)
	}
	r, err := Analyze(t.Context(), ds[0], "env*load")
	if err != nil {
		t.Fatal(err)
	}
	if r.Model != "env + load + env:load" || r.Deadlines == nil {
		t.Errorf("model %q, deadlines %v", r.Model, r.Deadlines)
	}
	for _, tt := range []struct {
		o    StudyOptions
		want string
	}{
		{StudyOptions{Workload: "cpu.prime"}, "no finished runs of cpu.prime; they ran: rt.periodic"},
		{StudyOptions{Responses: []string{"nope"}}, `neither a series nor a metric "nope"`},
		{StudyOptions{References: map[string]string{"load": "heavy"}}, `reference level "heavy" of load`},
		{StudyOptions{References: map[string]string{"colour": "red"}}, "colour, which is not a factor"},
	} {
		if _, err := FromStudies(context.Background(), opened(t, db), tt.o); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%+v: error %v, want %q", tt.o, err, tt.want)
		}
	}
}

// Factors returns the dataset's factors.
func (d *Dataset) Factors() []stats.Factor { return d.Cells.Factors }
