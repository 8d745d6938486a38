package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// requireEnvironment skips a test unless the environment name is
// available here, except in CI (CI=true), where it fails; what names the
// engine in the message. The environment is closed after the check.
func requireEnvironment(t *testing.T, name, what string) {
	t.Helper()
	e, err := engines.New(name, env.Options{BinaryPath: boxtaxBin, Version: "test"})
	if err == nil {
		err = e.Available(context.Background())
		_ = env.CloseAll(context.Background(), map[string]env.Environment{name: e})
	}
	if err != nil {
		testenv.Missing(t, "%s cannot run here: %v", what, err)
	}
}

// commandLines runs a host tool (ip, iptables) and returns the lines it
// printed that keep accepts, each behind label; a tool that is missing or
// fails gives what it printed, usually nothing.
func commandLines(label string, keep func(line string) bool, name string, args ...string) []string {
	printed, _ := exec.Command(name, args...).CombinedOutput()
	var lines []string
	for _, l := range strings.Split(string(printed), "\n") {
		if keep(l) {
			lines = append(lines, label+l)
		}
	}
	return lines
}

// containersOf lists the containers a boxtax controller (host/pid) started.
func containersOf(t *testing.T, c *docker.Client, pid int) []docker.ContainerSummary {
	t.Helper()
	host, _ := os.Hostname()
	list, err := c.ContainerList(context.Background(), map[string]string{ControllerLabel: fmt.Sprintf("%s/%d", host, pid)})
	if err != nil {
		t.Fatal(err)
	}
	return list
}

// reportJSON is the part of boxtax.report/v1 the tests read.
type reportJSON struct {
	Schema string `json:"schema"`
	Study  struct {
		ID     int64  `json:"id"`
		Status string `json:"status"`
		Host   struct {
			Docker *struct {
				StorageDriver string `json:"storage_driver"`
			} `json:"docker"`
		} `json:"host"`
	} `json:"study"`
	Cells []struct {
		Workload    string   `json:"workload"`
		Env         string   `json:"env"`
		Metric      string   `json:"metric"`
		N           int      `json:"n"`
		Mean        float64  `json:"mean"`
		OverheadPct *float64 `json:"overhead_pct"`
	} `json:"cells"`
	Runs struct{ Total, OK, Failed, Pending, Warmup int } `json:"runs"`
}

// decodeReport runs `boxtax report --format json` in dir and decodes what
// it prints into doc (a *reportJSON, or a struct of the fields a test
// reads); the test stops if that is not JSON.
func decodeReport(t *testing.T, dir string, doc any) {
	t.Helper()
	rep := runIn(t, dir, "report", "--format", "json")
	if err := json.Unmarshal([]byte(rep.stdout), doc); err != nil {
		t.Fatalf("report json: %v\n%s", err, rep.stdout)
	}
}

// dockerStudy runs `boxtax run args`, which the test needs to succeed, in
// a new directory, which it returns; without Docker the test skips (fails
// in CI).
func dockerStudy(t *testing.T, args ...string) (string, result) {
	t.Helper()
	testenv.RequireDocker(t)
	dir := t.TempDir()
	return dir, runOK(t, dir, append([]string{"run"}, args...)...)
}

func TestEndToEndNativeAndDocker(t *testing.T) {
	c := testenv.RequireDocker(t)
	dir := t.TempDir()
	// --disturbed off: the settle wait runs, but on a machine other
	// programs keep busy its reading would leave every run out as
	// disturbed (a CI run here had 12 of 12), and this test's table would
	// depend on them; disturbed_e2e_test.go tests the limits with its own.
	res := runOK(t, dir, "run", testdata(t, "tiny.yaml"), "--seed", "11", "--settle", "1s", "--disturbed", "off")
	// The table in the seeds' layout: native absolute, containers in percent.
	stdoutSays(t, res, "native", "docker-bridge", "docker-host", "cpu.prime", "events/s", "memcpy MiB/s", "%")
	if left := containersOf(t, c, os.Getpid()); len(left) > 0 {
		t.Errorf("%d containers left behind", len(left))
	}
	var doc reportJSON
	decodeReport(t, dir, &doc)
	if doc.Schema != "boxtax.report/v1" || doc.Study.Status != store.StudyFinished || doc.Runs.OK != 12 || doc.Runs.Warmup != 6 {
		t.Errorf("report header: %+v", doc)
	}
	if doc.Study.Host.Docker == nil || doc.Study.Host.Docker.StorageDriver == "" {
		t.Error("host facts lack the Docker storage driver")
	}
	seen := map[string]bool{}
	monitors := 0
	for _, cell := range doc.Cells {
		if strings.HasPrefix(cell.Metric, "mon.") {
			monitors++ // what the host did: may well be 0 (iowait, steal)
			continue
		}
		seen[cell.Env] = true
		if cell.N != 2 || cell.Mean <= 0 {
			t.Errorf("cell %+v: want 2 runs and a positive mean", cell)
		}
		if (cell.Env == "native") != (cell.OverheadPct == nil) {
			t.Errorf("cell %s/%s/%s: overhead %v", cell.Workload, cell.Env, cell.Metric, cell.OverheadPct)
		}
	}
	if len(seen) != 3 {
		t.Errorf("environments in the report: %v", seen)
	}
	if monitors == 0 {
		t.Error("no monitor readings (mon.*) were stored with the runs")
	}
	// Each run recorded its environment's actual settings.
	db := testenv.OpenStore(t, filepath.Join(dir, "boxtax.db"))
	runs, _ := db.Runs(context.Background(), doc.Study.ID)
	for _, r := range runs {
		if r.Env == "docker-bridge" && (r.Settings["network_mode"] != "bridge" || len(r.Settings["container_id"]) != 64 || r.Settings["image_id"] == "") {
			t.Errorf("bridge run settings: %v", r.Settings)
		}
		if r.Env == "docker-host" && r.Settings["network_mode"] != "host" {
			t.Errorf("host run settings: %v", r.Settings)
		}
	}
	// Tidy CSV: one row per sample, warm-ups flagged.
	csv := runIn(t, dir, "report", "--format", "csv")
	if lines := strings.Count(csv.stdout, "\n"); lines < 1+18 {
		t.Errorf("csv has %d lines", lines)
	}
}

// TestInterruptKeepsFinishedRunsAndResumes sends SIGINT to a real boxtax
// process while a container runs: the container must go, the finished runs
// must stay, and --resume must finish the study.
func TestInterruptKeepsFinishedRunsAndResumes(t *testing.T) {
	r := startSlowRun(t, nil, "i.db", "3", true) // a run finished and a container of it runs
	c, dir, dbPath, cmd, stderr, pid := r.c, r.dir, r.db, r.cmd, r.stderr, r.pid
	time.Sleep(300 * time.Millisecond) // into the workload
	// Ignoring SIGINT would finish the study (exit 0, no resume line: both
	// checked); the minute only catches a stop that hangs.
	if took := interrupt(t, cmd, stderr); took > time.Minute {
		t.Errorf("took %s to stop after SIGINT", took)
	}
	if !strings.Contains(stderr.String(), "boxtax run --resume --db "+dbPath) {
		t.Errorf("stderr does not say how to resume:\n%s", stderr.String())
	}
	if left := containersOf(t, c, pid); len(left) > 0 {
		t.Errorf("%d containers left behind after SIGINT", len(left))
	}
	kept := okRuns(t, dbPath)
	if kept < 1 {
		t.Fatal("the finished runs were not kept")
	}
	res := runOK(t, dir, "run", "--resume", "--db", dbPath, "--settle", "0")
	if !strings.Contains(res.stderr, fmt.Sprintf("(%d done before)", kept)) {
		t.Errorf("resume did not start after the %d kept runs:\n%s", kept, res.stderr)
	}
	if n := okRuns(t, dbPath); n != 6 {
		t.Errorf("%d ok runs after resume, want 6", n)
	}
}

// latestRuns reads the runs of the latest study in a database.
func latestRuns(t *testing.T, path string) []store.Run {
	t.Helper()
	_, runs, _ := testenv.Stored(t, path)
	return runs
}

// okRuns counts the finished runs of the latest study in a database.
func okRuns(t *testing.T, path string) int {
	t.Helper()
	_, runs := latestStudyRuns(path)
	return countRuns(runs, func(s string) bool { return s == store.RunOK })
}

// latestStudyRuns is the latest study in the database at path and its
// runs, read while a boxtax process may write them: none while there is
// nothing to read yet (no file, or one being created).
func latestStudyRuns(path string) (store.Study, []store.Run) {
	if _, err := os.Stat(path); err != nil {
		return store.Study{}, nil
	}
	db, err := store.OpenReadOnly(context.Background(), path)
	if err != nil {
		return store.Study{}, nil // being created
	}
	defer db.Close()
	st, err := db.LatestStudy(context.Background(), false)
	if err != nil {
		return store.Study{}, nil
	}
	runs, _ := db.Runs(context.Background(), st.ID)
	return st, runs
}

// countRuns counts the runs whose status keep accepts.
func countRuns(runs []store.Run, keep func(status string) bool) int {
	n := 0
	for _, r := range runs {
		if keep(r.Status) {
			n++
		}
	}
	return n
}

// runDone is a run's status once it no longer waits to run.
func runDone(status string) bool { return status != store.RunPending }
