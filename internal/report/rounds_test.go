package report

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
)

// TestVerdictSeesTheHostChange: the report's verdict takes the halves of
// a cell's rounds into account: a host that changed during the study
// (-40 %, then +12 %) is undecided and said so, a drift in three steps is
// undecided, and a steady cost is a cost.
func TestVerdictSeesTheHostChange(t *testing.T) {
	native := []float64{100, 101, 99, 100, 101, 99, 100, 101, 99}
	for _, tc := range []struct {
		name        string
		docker      []float64
		want        string
		hostChanged bool
	}{
		{"host changed", []float64{60, 61, 59, 60, 112, 113, 111, 112, 111}, VerdictUndecided, true},
		{"drift in three steps", []float64{80, 82, 81, 90, 91, 89, 100, 99, 101}, VerdictUndecided, false},
		{"steady cost", []float64{60, 61, 59, 60, 61, 59, 60, 61, 59}, VerdictCosts, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			runs, samples := roundRuns([]string{"native", "docker-host"}, native, tc.docker)
			r := Build(store.Study{ID: 1, Name: "rounds"}, Layout{Baseline: "native", Envs: []string{"native", "docker-host"}, Workloads: []string{"test.cpu"}}, runs, samples)
			if len(r.Verdicts) != 1 {
				t.Fatalf("verdicts %+v", r.Verdicts)
			}
			v := r.Verdicts[0]
			if v.Decision != tc.want || v.HostChanged != tc.hostChanged {
				t.Errorf("report %s (host changed %v); want %s, %v", v.Text, v.HostChanged, tc.want, tc.hostChanged)
			}
			if tc.hostChanged && !strings.HasPrefix(v.Text, "undecided: the host changed during the study: first half -40.0% [") {
				t.Errorf("report says %q", v.Text)
			}
		})
	}
}

// roundRuns are runs and samples of test.cpu (events/s), one run of each
// environment a round: envs[e]'s values in round order in values[e].
func roundRuns(envs []string, values ...[]float64) ([]store.Run, []store.Sample) {
	var runs []store.Run
	var samples []store.Sample
	for rep := range values[0] {
		for e, env := range envs {
			if rep >= len(values[e]) {
				continue
			}
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: "test.cpu|env=" + env, Workload: "test.cpu", Env: env,
				Levels: map[string]string{"env": env}, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: values[e][rep], Unit: "events/s"})
		}
	}
	return runs, samples
}
