package cli

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestRunCmdKeepsItsRowsAndTakesYourMetric: issue 27. With --metric the
// wall, CPU and peak-memory rows stay in the table; a figure named as
// the sysbench adapter's replaces it (it was refused as "named twice"),
// with a note at plan time and on every stored run; the study is named
// after its command in list studies, the report and serve.
func TestRunCmdKeepsItsRowsAndTakesYourMetric(t *testing.T) {
	testenv.RequireTool(t, "sysbench", "sysbench")
	dir := t.TempDir()
	res := runOK(t, dir, "run", "--cmd", "sysbench cpu --time=1 run", "--metric", `events/s=events per second:\s*([0-9.]+)`,
		"--envs", "native", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	stdoutSays(t, res, "wall s", "user CPU s", "system CPU s", "peak RSS MiB", "events/s", `"sysbench cpu --time=1 run"`)
	stderrSays(t, res, "note: metric events_per_s is yours (regex events per second:")
	_, runs, samples := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	for _, r := range runs {
		if r.Status != store.RunOK || !strings.Contains(r.Notes["metric_replaced"], "not the sysbench adapter's") {
			t.Errorf("run %d: %s %s, notes %v", r.Seq, r.Status, r.Reason, r.Notes)
		}
		n := 0
		for _, s := range samples {
			if s.RunID == r.ID && s.Metric == "events_per_s" {
				n++
			}
		}
		if n != 1 {
			t.Errorf("run %d: %d events_per_s samples, want 1", r.Seq, n)
		}
	}
	list := runOK(t, dir, "list", "studies")
	stdoutSays(t, list, "1 sysbench cpu --time=1 run")
	resp, err := http.Get(startServe(t, filepath.Join(dir, "boxtax.db")) + "/")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(body), ">sysbench cpu --time=1 run</a>") {
		t.Errorf("serve's index does not name the study after its command:\n%s", body)
	}
}

// TestRunSeveralCommandsWithParamsAndPrepare: hyperfine's habits (issue
// 27). Two --cmd are the levels of the factor command, named after the
// shortened commands; --param level=1,9 is a factor substituted as
// {level}; --prepare runs before each measured run in the same
// environment (the container too) and directory, outside the timing.
func TestRunSeveralCommandsWithParamsAndPrepare(t *testing.T) {
	engine := testenv.RequireDocker(t)
	dir := t.TempDir()
	data := filepath.Join(dir, "data")
	if err := os.WriteFile(data, []byte(strings.Repeat("boxtax measures containers\n", 20000)), 0o644); err != nil {
		t.Fatal(err)
	}
	res := runOK(t, dir, "run", "--cmd", "gzip -n -c -{level} "+data, "--cmd", "sh -c 'test -f prepared'", "--param", "level=1,9",
		"--prepare", "sh -c 'sleep 1; : > prepared'", "--file", data,
		"--envs", "native,docker-bridge", "--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	stdoutSays(t, res, "command=gzip -n -c -{level} data level=1", "command=gzip -n -c -{level} data level=9",
		"command=sh -c 'test -f prepared' level=9", "docker-bridge")
	st, runs, samples := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	removeHostFileImages(t, engine, runs)
	if st.Name != "gzip -n -c -{level} data vs sh -c 'te..." {
		t.Errorf("study named %q", st.Name)
	}
	if len(runs) != 8 {
		t.Errorf("%d runs, want 2 commands x 2 levels x 2 environments", len(runs))
	}
	for _, r := range runs {
		if r.Status != store.RunOK {
			t.Errorf("run %d %v: %s %s", r.Seq, r.Levels, r.Status, r.Reason)
			continue
		}
		cmd, _ := r.Params["cmd"].([]any)
		if strings.HasPrefix(r.Levels["command"], "gzip") && (len(cmd) < 4 || cmd[3] != "-"+r.Levels["level"]) {
			t.Errorf("run %d %v ran %v: {level} not substituted", r.Seq, r.Levels, cmd)
		}
		for _, s := range samples {
			if s.RunID == r.ID && s.Metric == "wall_s" && s.Value >= 0.9 {
				t.Errorf("run %d %v: wall %v s: --prepare's second was timed", r.Seq, r.Levels, s.Value)
			}
		}
	}
	bad := runIn(t, dir, "run", "--cmd", "gzip -{lvl} "+data, "--param", "level=1,9", "--envs", "native")
	if bad.code != ExitUsage || !strings.Contains(bad.stderr, "{lvl} names no parameter; known parameters: level") {
		t.Errorf("an unknown {name}: exit %d\n%s", bad.code, bad.stderr)
	}
}

// TestCompareRefusesOtherCommands: issue 27, `compare 3 4` put two
// different commands side by side as one cell (+12060.9 %).
func TestCompareRefusesOtherCommands(t *testing.T) {
	dir := t.TempDir()
	for _, cmd := range []string{"sh -c 'echo a'", "true", "true"} {
		runOK(t, dir, "run", "--cmd", cmd, "--envs", "native", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0")
	}
	res := runIn(t, dir, "compare", "1", "2")
	if res.code != ExitUsage || !strings.Contains(res.stderr, `cmd: parameter cmd is [/`) || !strings.Contains(res.stderr, `sh -c "echo a"] in A, [/`) ||
		!strings.Contains(res.stderr, `true] in B`) || !strings.Contains(res.stderr, "--ignore-differences") {
		t.Errorf("compare of two commands: exit %d, stdout %s\nstderr %s", res.code, res.stdout, res.stderr)
	}
	ok := runOK(t, dir, "compare", "1", "2", "--ignore-differences")
	stdoutSays(t, ok, "Not the same work: cmd: parameter cmd", "wall s")
	same := runOK(t, dir, "compare", "2", "3")
	if strings.Contains(same.stdout, "Not the same work") {
		t.Errorf("the same command twice is not a difference:\n%s", same.stdout)
	}
}

// removeHostFileImages removes, when the test ends, the images made from
// host files for the runs (boxtax-worker:BINARY-CONTENT; their files are
// the test's own, so no other test uses them), not the worker image.
func removeHostFileImages(t *testing.T, engine *docker.Client, runs []store.Run) {
	var tags []string
	for _, r := range runs {
		if tag := r.Settings["image"]; strings.Count(tag, "-") > 1 && !slices.Contains(tags, tag) {
			tags = append(tags, tag)
		}
	}
	removeImagesAtEnd(t, engine, tags...)
}
