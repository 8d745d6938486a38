package study

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// storedCells are runs and samples of test.cpu, natively and in
// docker-host, one run of each per round, with the values given in
// round order.
func storedCells(native, docker []float64) ([]store.Run, []store.Sample) {
	var runs []store.Run
	var samples []store.Sample
	for rep := range native {
		for e, env := range []string{"native", "docker-host"} {
			id := int64(len(runs) + 1)
			runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: "test.cpu|env=" + env, Workload: "test.cpu", Env: env,
				Levels: map[string]string{"env": env}, Status: store.RunOK})
			samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: [][]float64{native, docker}[e][rep]})
		}
	}
	return runs, samples
}

func roundsSpec() *Spec {
	return &Spec{Baseline: "native", Envs: []Named{{Name: "native"}, {Name: "docker-host"}}, Workloads: []WorkloadSpec{{Name: "test.cpu"}}}
}

// TestStoppingRuleSeesTheHostChange: the container costs 40 % in the
// first half of the rounds and gains 12 % in the second. Over all rounds
// its interval excludes 0, but the rule does not stop on it: the cell is
// undecided, and the end lines say the host changed, with both halves.
func TestStoppingRuleSeesTheHostChange(t *testing.T) {
	runs, samples := storedCells([]float64{100, 101, 99, 100, 101, 99, 100, 101}, []float64{60, 61, 59, 60, 112, 113, 111, 112})
	d := result.Decide(roundsSpec().Layout(), runs, samples, false)
	if len(d.Cells) != 1 {
		t.Fatalf("cells: %+v", d.Cells)
	}
	c := d.Cells[0]
	if c.Decided() || !c.Verdict.HostChanged || d.Done {
		t.Fatalf("verdict %v (host changed %v), done %v: want undecided because the host changed", c.Verdict.Decision, c.Verdict.HostChanged, d.Done)
	}
	if s := d.Summary(); !strings.Contains(s, "the host changed during the study: first half -40.0% [") {
		t.Errorf("summary %q does not say the host changed", s)
	}
	lines := strings.Join(AdaptiveEnd{Stopped: StoppedMax, Rounds: 8, Last: d}.Lines(0), "\n")
	if !strings.Contains(lines, "test.cpu events_per_s @ docker-host: ") || !strings.Contains(lines, "(the host changed during the study: first half -40.0% [") {
		t.Errorf("end lines do not say the host changed:\n%s", lines)
	}
}

// TestStoppingRuleWidensForDrift: the container's rounds drift in three
// steps (80, 90, 100 against a native 100). Fieller's interval of the runs
// as if independent excludes 0, a cost; across rounds the interval carries
// the drift, holds 0, and the cell stays undecided.
func TestStoppingRuleWidensForDrift(t *testing.T) {
	native := []float64{100, 101, 99, 100, 101, 99, 100, 101, 99}
	docker := []float64{80, 82, 81, 90, 91, 89, 100, 99, 101}
	if plain := stats.Overhead(native, docker, stats.CostStopLevel); !plain.Significant {
		t.Fatalf("the case is meant to fool the runs' interval: [%g, %g]", plain.LoPct, plain.HiPct)
	}
	runs, samples := storedCells(native, docker)
	d := result.Decide(roundsSpec().Layout(), runs, samples, false)
	if len(d.Cells) != 1 || d.Cells[0].Decided() {
		t.Fatalf("want one undecided cell, got %+v", d.Cells)
	}
	if v := d.Cells[0].Verdict; !(v.LoPct < 0 && v.HiPct > 0) && !v.HostChanged {
		t.Errorf("interval [%g, %g] does not carry the drift", v.LoPct, v.HiPct)
	}
}
