package cli

import "testing"

func TestStartupIsTimedAroundTheWorker(t *testing.T) {
	dir, _ := dockerStudy(t, "--workloads", "ctr.startup", "--envs", "native,docker-host", "--reps", "2", "--warmup", "0",
		"--settle", "0", "--monitor-interval", "0", "--quiet")
	var doc reportJSON
	decodeReport(t, dir, &doc)
	got := map[string]float64{}
	for _, c := range doc.Cells {
		got[c.Env+"/"+c.Metric] = c.Mean
	}
	for _, e := range []string{"native", "docker-host"} {
		act, first, exit := got[e+"/activation_ms"], got[e+"/first_output_ms"], got[e+"/exit_ms"]
		// The phases come in order: first instruction, first output, exit.
		if !(act > 0 && act <= first && first <= exit) {
			t.Errorf("%s: activation %v, first output %v, exit %v ms: want 0 < activation <= first output <= exit", e, act, first, exit)
		}
	}
	if got["docker-host/create_ms"] <= 0 || got["native/create_ms"] != 0 {
		t.Errorf("create_ms: docker-host %v, native %v", got["docker-host/create_ms"], got["native/create_ms"])
	}
}
