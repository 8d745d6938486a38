package cli

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// Your own program the first time (issue 27): the files its command names
// go into the image with their mode and time, relative paths resolve the
// same natively and in a container, and a program that cannot run in a
// container stops there with a hint, before the measured runs.

// quickCmd are the flags that keep a --cmd study short.
var quickCmd = []string{"--envs", "native,docker-bridge", "--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0"}

// imageBuilt is the image the run said it builds for its containers.
var imageBuilt = regexp.MustCompile(`docker-bridge run the image (\S+) \(([^)]*)\), (built now for this study|made before)`)

// removeBuiltImage removes, after the test, the image res said it built.
func removeBuiltImage(t *testing.T, res result) {
	t.Helper()
	m := imageBuilt.FindStringSubmatch(res.stderr)
	if m == nil {
		t.Errorf("the run does not say which image it builds:\n%s", res.stderr)
		return
	}
	c := testenv.RequireDocker(t)
	t.Cleanup(func() { _ = c.ImageRemove(context.Background(), m[1], true) })
}

// samplesOf are the run-level samples of each run of a study, by run ID.
func samplesOf(all []store.Sample) map[int64]map[string]float64 {
	out := map[int64]map[string]float64{}
	for _, s := range all {
		if s.Instance == 0 {
			if out[s.RunID] == nil {
				out[s.RunID] = map[string]float64{}
			}
			out[s.RunID][s.Metric] = s.Value
		}
	}
	return out
}

// TestRunCmdGzipOfABigHostFile is the first try: gzip -c of a big
// host file the command names, with no --file. The file goes into the
// image unasked (the run says so, and which image it builds, how big),
// with its time and mode: gzip refused a copy with time 0, and stat in the
// container reads the host's mode and time.
func TestRunCmdGzipOfABigHostFile(t *testing.T) {
	testenv.RequireDocker(t)
	gzip := testenv.RequireTool(t, "gzip", "gzip")
	stat := testenv.RequireTool(t, "stat", "coreutils")
	dir := t.TempDir()
	big := filepath.Join(dir, "readings.log")
	var content bytes.Buffer
	for i := 0; content.Len() < 20<<20; i++ {
		fmt.Fprintf(&content, "%d sensor-%d 21.%d C\n", i, i%7, i%10)
	}
	testenv.WriteFile(t, big, content.Bytes(), 0o640)
	mtime := time.Date(2025, 3, 14, 15, 9, 26, 0, time.UTC)
	if err := os.Chtimes(big, mtime, mtime); err != nil {
		t.Fatal(err)
	}
	res := runOK(t, dir, append([]string{"run", "--cmd", gzip + " -c " + big}, quickCmd...)...)
	removeBuiltImage(t, res)
	stderrSays(t, res, "adds "+big+" (21 MB) to the image", "built now for this study", "docker-bridge: ok")
	_, runs, all := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	measured := samplesOf(all)
	for _, r := range runs {
		if r.Status != store.RunOK || measured[r.ID]["wall_s"] <= 0 || measured[r.ID]["user_s"] <= 0 {
			t.Errorf("run %d in %s: %s %s, samples %v", r.Seq, r.Env, r.Status, r.Reason, measured[r.ID])
		}
	}
	if len(runs) != 2 {
		t.Errorf("%d runs, want 2 (the check run is not stored without warm-up)", len(runs))
	}

	// The same file, its mode and time read by stat in each environment.
	res = runOK(t, dir, append([]string{"run", "--cmd", stat + " -c '%a %Y' " + big, "--db", "stat.db",
		"--metric", `mode=^([0-9]+) `, "--metric", `mtime_s=([0-9]+)\s*$`}, quickCmd...)...)
	removeBuiltImage(t, res)
	_, runs, all = testenv.Stored(t, filepath.Join(dir, "stat.db"))
	got := samplesOf(all)
	for _, r := range runs {
		if s := got[r.ID]; s["mode"] != 640 || s["mtime_s"] != float64(mtime.Unix()) {
			t.Errorf("in %s stat says mode %v, mtime %v; want the host's 640, %d (%s %s)", r.Env, s["mode"], s["mtime_s"], mtime.Unix(), r.Status, r.Reason)
		}
	}
}

// TestRunCmdScriptReadsARelativeDataFile: a #!/bin/sh script given as a
// relative path, reading a data file given as a relative path: natively
// and in the container it runs in the current directory, where both
// resolve, and reads the same value.
func TestRunCmdScriptReadsARelativeDataFile(t *testing.T) {
	testenv.RequireDocker(t)
	testenv.RequireTool(t, "sh", "dash")
	dir := t.TempDir()
	for _, sub := range []string{"bin", "data"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	testenv.WriteFile(t, filepath.Join(dir, "bin", "read-sensor"), []byte("#!/bin/sh\nset -e\nread value < \"$1\"\necho \"value $value\"\n"), 0o755)
	testenv.WriteFile(t, filepath.Join(dir, "data", "sensor.txt"), []byte("42\n"), 0o644)
	res := runOK(t, dir, append([]string{"run", "--cmd", "./bin/read-sensor data/sensor.txt", "--metric", `value=value ([0-9]+)`}, quickCmd...)...)
	removeBuiltImage(t, res)
	stderrSays(t, res, "adds "+filepath.Join(dir, "data", "sensor.txt")+" (3 B) to the image", "runs the command in "+dir)
	_, runs, all := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	got := samplesOf(all)
	for _, r := range runs {
		if got[r.ID]["value"] != 42 {
			t.Errorf("in %s the script read %v, want 42 (%s %s)", r.Env, got[r.ID]["value"], r.Status, r.Reason)
		}
	}
}

// TestRunCmdFailsFastInTheContainer: a program that runs natively but not
// in a container (a script reading a host file the command does not name)
// stops the study before the measured runs, with its output and the
// --file to add, and nothing stored (exit 3); with --skip-unavailable the
// study goes on without the container, recorded as unavailable; a warm-up
// round is the check, not done twice.
func TestRunCmdFailsFastInTheContainer(t *testing.T) {
	testenv.RequireDocker(t)
	testenv.RequireTool(t, "sh", "dash")
	dir := t.TempDir()
	secret := filepath.Join(dir, "calibration.txt")
	testenv.WriteFile(t, secret, []byte("7\n"), 0o644)
	script := filepath.Join(dir, "calibrate.sh")
	testenv.WriteFile(t, script, []byte("#!/bin/sh\nset -e\necho starting >&2\nread c < "+secret+"\necho \"calibrated $c\"\n"), 0o755)

	res := runIn(t, dir, "run", "--cmd", script, "--envs", "native,docker-bridge", "--reps", "3", "--warmup", "0", "--settle", "0", "--monitor-interval", "0", "--db", "stop.db")
	removeBuiltImage(t, res)
	if res.code != ExitRunsFailed {
		t.Fatalf("exit %d, want %d\n%s", res.code, ExitRunsFailed, res.stderr)
	}
	stderrSays(t, res, "the command failed in docker-bridge before the measured runs", "exited with status 2; its output: starting | ", "cannot open "+secret,
		"hint: a file the program opens is not in the image: add --file "+secret, "--skip-unavailable, or --envs native")
	if strings.Contains(res.stderr, "runs to do") {
		t.Errorf("measured runs were started:\n%s", res.stderr)
	}
	if n := okRuns(t, filepath.Join(dir, "stop.db")); n != 0 {
		t.Errorf("%d runs stored, want none", n)
	}

	res = runOK(t, dir, "run", "--cmd", script, "--envs", "native,docker-bridge", "--reps", "2", "--warmup", "1", "--settle", "0", "--monitor-interval", "0",
		"--db", "skip.db", "--skip-unavailable")
	removeBuiltImage(t, res)
	stderrSays(t, res, "environment docker-bridge is left out (--skip-unavailable)")
	// Issue 42 item 8: the table and the page say it too, with why.
	stdoutSays(t, res, "left out by --skip-unavailable: docker-bridge (the command failed in its check run")
	page := runOK(t, dir, "report", "--db", "skip.db", "--format", "html")
	stdoutSays(t, page, "Left out:</strong> not run here, left out by --skip-unavailable: docker-bridge (the command failed in its check run")
	st, runs, _ := testenv.Stored(t, filepath.Join(dir, "skip.db"))
	if !strings.Contains(st.HostJSON, `"docker-bridge":"the command failed in its check run`) {
		t.Errorf("docker-bridge is not recorded as unavailable: %s", st.HostJSON)
	}
	warm := 0
	for _, r := range runs {
		if r.Env != "native" || r.Status != store.RunOK {
			t.Errorf("run %d in %s: %s %s", r.Seq, r.Env, r.Status, r.Reason)
		}
		if r.Warmup {
			warm++
			if r.Reason != "" || r.Ended.IsZero() {
				t.Errorf("the warm-up run was not the check run: %+v", r)
			}
		}
	}
	if len(runs) != 3 || warm != 1 {
		t.Errorf("%d runs, %d warm-up; want 3 and 1 (the check run is the warm-up round)", len(runs), warm)
	}
	if strings.Count(res.stderr, "runs to do") != 1 || !strings.Contains(res.stderr, "2 runs to do (1 done before)") {
		t.Errorf("the warm-up should not run again:\n%s", res.stderr)
	}

	res = runIn(t, dir, "run", "--cmd", script, "--file", secret, "--envs", "native,docker-bridge", "--reps", "1", "--warmup", "0", "--settle", "0", "--monitor-interval", "0", "--db", "fixed.db")
	removeBuiltImage(t, res)
	if res.code != ExitOK || okRuns(t, filepath.Join(dir, "fixed.db")) != 2 {
		t.Errorf("with the hint's --file: exit %d\n%s", res.code, res.stderr)
	}
}
