package report

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
)

// TestDisturbedRunsStayOutOfTheVerdict: two of six container runs were
// disturbed (one far off, as a disturbed run is); the verdict rests on the
// other four rounds, and the report counts the two with their causes.
func TestDisturbedRunsStayOutOfTheVerdict(t *testing.T) {
	native := []float64{1000, 1004, 996, 1002, 998, 1001}
	docker := []float64{1000, 400, 1003, 997, 1001, 380}
	why := map[int]string{1: "steal: the hypervisor took 31.0% of the CPUs' time during the run (limit 10%)",
		5: "busy: another program kept the host 95% busy up to the run's start (limit 50%)"}
	var runs []store.Run
	var samples []store.Sample
	for rep := range native {
		for e, env := range []string{"native", "docker-bridge"} {
			id := int64(len(runs) + 1)
			run := store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: "test.cpu|env=" + env, Workload: "test.cpu", Env: env,
				Levels: map[string]string{"env": env}, Status: store.RunOK}
			if env == "docker-bridge" && why[rep] != "" {
				run.Status, run.Reason = store.RunDisturbed, why[rep]
			}
			runs = append(runs, run)
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: [][]float64{native, docker}[e][rep], Unit: "events/s"})
		}
	}
	r := Build(store.Study{ID: 1, Name: "disturbed"}, Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"test.cpu"}}, runs, samples)
	if len(r.Verdicts) != 1 {
		t.Fatalf("verdicts %+v", r.Verdicts)
	}
	v := r.Verdicts[0]
	if v.N != 4 || v.Decision != VerdictNoDifference {
		t.Errorf("verdict on %d rounds: %s; want 4 rounds and no difference (the disturbed -60 %% runs left out)", v.N, v.Text)
	}
	if r.Runs.Disturbed != 2 || r.Runs.OK != 10 || len(r.Disturbed) != 2 || r.Disturbed[0].Reason != why[1] {
		t.Errorf("runs %+v, disturbed %+v", r.Runs, r.Disturbed)
	}
	if len(r.WarningGroups) == 0 || r.WarningGroups[0].Kind != WarnDisturbed ||
		!strings.HasPrefix(r.WarningGroups[0].Text, "disturbed host: 2 measured run(s) left out of the verdicts (busy 1, steal 1); most in test.cpu @ docker-bridge (2); first: run 4: steal: ") {
		t.Errorf("warnings %+v", r.WarningGroups)
	}
}
