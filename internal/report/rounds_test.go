package report

import (
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// TestVerdictIsTheStoppingRules: on the same runs the report's verdict
// and the adaptive study's rule decide alike, the halves included: a host
// that changed during the study (-40 %, then +12 %), a drift in three steps,
// and a steady cost.
func TestVerdictIsTheStoppingRules(t *testing.T) {
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
			var runs []store.Run
			var samples []store.Sample
			for rep := range native {
				for e, env := range []string{"native", "docker-host"} {
					id := int64(len(runs) + 1)
					runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: "test.cpu|env=" + env, Workload: "test.cpu", Env: env,
						Levels: map[string]string{"env": env}, Status: store.RunOK})
					samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: [][]float64{native, tc.docker}[e][rep], Unit: "events/s"})
				}
			}
			spec := &study.Spec{Baseline: "native", Envs: []study.Named{{Name: "native"}, {Name: "docker-host"}}, Workloads: []study.WorkloadSpec{{Name: "test.cpu"}}}
			rule := study.DecisionsOf(spec, runs, samples)
			r := Build(store.Study{ID: 1, Name: "rounds"}, Layout{Baseline: "native", Envs: []string{"native", "docker-host"}, Workloads: []string{"test.cpu"}}, runs, samples)
			if len(rule.Cells) != 1 || len(r.Verdicts) != 1 {
				t.Fatalf("rule %+v, verdicts %+v", rule.Cells, r.Verdicts)
			}
			v, d := r.Verdicts[0], rule.Cells[0].Verdict
			if v.Decision != tc.want || v.HostChanged != tc.hostChanged || d.HostChanged != tc.hostChanged || (d.Decision == stats.Undecided) != (v.Decision == VerdictUndecided) {
				t.Errorf("report %s (host changed %v), rule %v (host changed %v); want %s, %v", v.Text, v.HostChanged, d.Decision, d.HostChanged, tc.want, tc.hostChanged)
			}
			if tc.hostChanged && v.Text != "undecided: "+d.HostChangedText() {
				t.Errorf("report says %q, the rule %q", v.Text, d.HostChangedText())
			}
		})
	}
}
