package cli

import (
	"strings"
	"testing"
)

func TestRepsFlagRefusesBadValues(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"run", "--reps", "many"}, "want a whole number from 1 to 1000, paper or auto"},
		{[]string{"run", "--reps", "0"}, "want a whole number from 1 to 1000"},
		{[]string{"run", "--precision", "2%"}, "--precision and --max-reps go with --reps auto"},
		{[]string{"run", "--reps", "auto", "--precision", "0"}, "want a percentage above 0"},
		{[]string{"run", "--reps", "auto", "--max-reps", "1"}, "--max-reps must be 2 to 1000"},
		{[]string{"run", testdata(t, "tiny.yaml"), "--reps", "paper"}, "names no paper repetition count"},
	} {
		runExits(t, dir, ExitUsage, tt.args, tt.want)
	}
}

// TestAdaptiveRepetitionsEndToEnd runs a short real study with --reps auto:
// rounds are added until every cell is decided (a cost, or no difference
// beyond ±50 %: easily reached) or 3 rounds; the report says how many ran and which cells met
// the target.
func TestAdaptiveRepetitionsEndToEnd(t *testing.T) {
	dir, res := dockerStudy(t, testdata(t, "tiny.yaml"), "--envs", "native,docker-host", "--workloads", "cpu.prime",
		"--reps", "auto", "--precision", "50%", "--max-reps", "3", "--warmup", "0", "--seed", "3", "--settle", "0", "--monitor-interval", "0")
	if !strings.Contains(res.stderr, "adaptive: rounds are added until every cell is decided (a firm cost beyond ±50%, or no difference within it), at most 3 rounds") ||
		!strings.Contains(res.stderr, "cells decided (") {
		t.Errorf("run did not report the adaptive target:\n%s", res.stderr)
	}
	var doc struct {
		Study struct {
			Repetitions struct {
				Rounds       int     `json:"rounds"`
				PrecisionPct float64 `json:"precision_pct"`
				MaxRounds    int     `json:"max_rounds"`
			} `json:"repetitions"`
		} `json:"study"`
		Cells []struct {
			Env     string `json:"env"`
			Metric  string `json:"metric"`
			N       int    `json:"n"`
			Reached *bool  `json:"precision_reached"`
		} `json:"cells"`
	}
	decodeReport(t, dir, &doc)
	r := doc.Study.Repetitions
	if r.Rounds < 2 || r.Rounds > 3 || r.PrecisionPct != 50 || r.MaxRounds != 3 {
		t.Errorf("repetitions %+v: want 2 or 3 rounds of at most 3, target 50%%", r)
	}
	marked := 0
	for _, c := range doc.Cells {
		if c.N != r.Rounds {
			t.Errorf("%s %s: %d runs in %d rounds", c.Env, c.Metric, c.N, r.Rounds)
		}
		if c.Env == "docker-host" && c.Metric == "events_per_s" {
			if c.Reached == nil {
				t.Errorf("docker-host events_per_s: no precision verdict")
			}
			marked++
		}
	}
	if marked != 1 {
		t.Errorf("%d docker-host events_per_s cells", marked)
	}
	tab := runIn(t, dir, "report")
	if !strings.Contains(tab.stdout, "\ndecided: ") || !strings.Contains(tab.stdout, "(adaptive: started with 2, target ±50%, at most 3)") {
		t.Errorf("the table does not say which cells reached the target:\n%s", tab.stdout)
	}
}

// TestReportPaired: report --paired switches the table's intervals to the
// paired ones and says so; the JSON carries the paired figures either way.
func TestReportPaired(t *testing.T) {
	dir := studyDir(t, "paired")
	plain := runIn(t, dir, "report")
	paired := runIn(t, dir, "report", "--paired")
	if plain.code != ExitOK || paired.code != ExitOK {
		t.Fatalf("exit %d, %d: %s %s", plain.code, paired.code, plain.stderr, paired.stderr)
	}
	if strings.Contains(plain.stdout, "paired by round") || !strings.Contains(paired.stdout, "overhead intervals: paired by round") {
		t.Errorf("--paired not reflected:\n%s\n---\n%s", plain.stdout, paired.stdout)
	}
	js := runIn(t, dir, "report", "--format", "json")
	if !strings.Contains(js.stdout, `"paired": {`) || !strings.Contains(js.stdout, `"pairs": 3`) {
		t.Errorf("JSON without paired figures:\n%s", js.stdout)
	}
}
