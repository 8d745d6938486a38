package result

import (
	"testing"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// studyOf is one study's runs and samples of cpu.prime's events/s, native
// against docker-host, 6 rounds: the container at factor times the
// baseline, each run off by a small, fixed pattern of noise.
func studyOf(factor float64) ([]store.Run, []store.Sample) {
	var runs []store.Run
	var samples []store.Sample
	noise := []float64{0.01, -0.01, 0.005, -0.005, 0.002, -0.002}
	for rep := range 6 {
		for i, env := range []string{"native", "docker-host"} {
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, CellKey: "cpu.prime|env=" + env, Workload: "cpu.prime", Env: env,
				Levels: map[string]string{"env": env}, Params: map[string]any{"threads": 1}, Rep: rep, Status: store.RunOK})
			v := 1000 * (1 + noise[(rep+i)%len(noise)])
			if env != "native" {
				v *= factor
			}
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: v})
		}
	}
	return runs, samples
}

// A cell whose overhead moved between studies (-1 % in the first, -20 %
// in the second) is decided in each alone; judged with the other study,
// its interval carries the spread and it is not. Studies that agree
// leave the interval as it was.
func TestDecideCarriesTheSpreadBetweenStudies(t *testing.T) {
	lay := Layout{Baseline: "native", Envs: []string{"native", "docker-host"}, Workloads: []string{"cpu.prime"}}
	verdict := func(lay Layout, factor float64) stats.Verdict {
		runs, samples := studyOf(factor)
		d := Decide(lay, runs, samples, false)
		if len(d.Cells) != 1 {
			t.Fatalf("%d cells judged, want 1", len(d.Cells))
		}
		return d.Cells[0].Verdict
	}
	alone := verdict(lay, 0.80)
	if alone.Decision != stats.Costs {
		t.Fatalf("alone: %+v, want a cost", alone)
	}
	moved := lay
	moved.Earlier = Earlier{}
	r1, s1 := studyOf(0.99)
	moved.Earlier.Add("native", r1, s1)
	withStudies := verdict(moved, 0.80)
	if withStudies.Decision != stats.Undecided || !(withStudies.LoPct < alone.LoPct && withStudies.HiPct > alone.HiPct) {
		t.Errorf("with a study 19 points away: %s, want undecided and wider than alone (%s)", Interval(withStudies), Interval(alone))
	}
	same := lay
	same.Earlier = Earlier{}
	r2, s2 := studyOf(0.80)
	same.Earlier.Add("native", r2, s2)
	if again := verdict(same, 0.80); again.LoPct != alone.LoPct || again.HiPct != alone.HiPct {
		t.Errorf("with a study that measured the same: %s, want %s as alone", Interval(again), Interval(alone))
	}
	// Another workload size is another cell: no spread carried.
	other := lay
	other.Earlier = Earlier{}
	runs, samples := studyOf(0.99)
	for i := range runs {
		runs[i].Params = map[string]any{"threads": 2}
	}
	other.Earlier.Add("native", runs, samples)
	if got := verdict(other, 0.80); got.LoPct != alone.LoPct {
		t.Errorf("a study of another size widened the interval: %s", Interval(got))
	}
}
