package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// TestDisturbedRunsAreMarkedAndLeftOut runs a real study natively twice.
// With a steal limit below 0 every run the monitors saw counts as
// disturbed, whatever this host does, so the classification is certain:
// each run is logged as disturbed with why, stored so, counted by cause in
// the report and left out of its cells. With the classification off the
// same study's runs are measured as usual.
func TestDisturbedRunsAreMarkedAndLeftOut(t *testing.T) {
	testenv.SkipShort(t, "runs a study natively")
	type report struct {
		Runs struct {
			OK, Disturbed int
		} `json:"runs"`
		Disturbed []struct {
			Workload, Reason string
		} `json:"disturbed_runs"`
		Cells []struct {
			Env    string    `json:"env"`
			Values []float64 `json:"values"`
		} `json:"cells"`
		WarningGroups []struct{ Kind, Text string } `json:"warning_groups"`
	}
	study := func(limits string) (result, report) {
		dir := t.TempDir()
		res := runOK(t, dir, "run", testdata(t, "tiny.yaml"), "--envs", "native", "--workloads", "cpu.prime", "--reps", "2", "--warmup", "0",
			"--settle", "0", "--monitor-interval", "50ms", "--power", "none", "--disturbed", limits)
		out := runOK(t, dir, "report", "--format", "json")
		var r report
		if err := json.Unmarshal([]byte(out.stdout), &r); err != nil {
			t.Fatalf("report JSON: %v\n%s", err, out.stdout)
		}
		return res, r
	}

	res, r := study("steal=-1")
	if n := strings.Count(res.stderr+res.stdout, "disturbed, left out of the verdicts: steal: the hypervisor took"); n != 2 {
		t.Errorf("the run's log names %d disturbed runs, want 2:\n%s\n%s", n, res.stderr, res.stdout)
	}
	if r.Runs.Disturbed != 2 || r.Runs.OK != 0 || len(r.Disturbed) != 2 {
		t.Fatalf("runs %+v, disturbed %+v: want 2 disturbed, none ok", r.Runs, r.Disturbed)
	}
	for _, d := range r.Disturbed {
		if d.Workload != "cpu.prime" || !strings.HasPrefix(d.Reason, "steal: the hypervisor took ") || !strings.Contains(d.Reason, "(limit -1%)") {
			t.Errorf("disturbed run %+v: want cpu.prime with its steal and the limit", d)
		}
	}
	for _, c := range r.Cells {
		if len(c.Values) > 0 {
			t.Errorf("cell in %s holds %v: a disturbed run's figure went into it", c.Env, c.Values)
		}
	}
	if len(r.WarningGroups) == 0 || r.WarningGroups[0].Kind != "disturbed" || !strings.Contains(r.WarningGroups[0].Text, "2 measured run(s) left out of the verdicts (steal 2)") {
		t.Errorf("warnings %+v: want the disturbed runs first, counted by cause", r.WarningGroups)
	}

	_, r = study("off")
	if r.Runs.OK != 2 || r.Runs.Disturbed != 0 || len(r.Cells) == 0 || len(r.Cells[0].Values) != 2 {
		t.Errorf("with the classification off: runs %+v, cells %+v; want 2 ok runs in the cell", r.Runs, r.Cells)
	}
}
