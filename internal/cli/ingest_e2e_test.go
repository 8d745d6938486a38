package cli

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// requireIngestPrograms ends a test of iot.ingest without the real nginx
// and redis as testenv.Missing does.
func requireIngestPrograms(t *testing.T) {
	t.Helper()
	testenv.RequireTool(t, "/usr/sbin/nginx", "nginx-light")
	testenv.RequireTool(t, "/usr/bin/redis-server", "redis-server")
}

// ingestProcesses lists the processes an iot.ingest server side starts
// (nodes, and nginx and redis in a boxtax-ingest- directory), by pid.
func ingestProcesses() map[string]string {
	out := map[string]string{}
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		cmd := strings.ReplaceAll(string(b), "\x00", " ")
		if (strings.HasPrefix(cmd, "boxtax-ingest-node ") || strings.Contains(cmd, "/boxtax-ingest-")) && !anotherTests(e.Name()) {
			out[e.Name()] = cmd
		}
	}
	return out
}

// anotherTests tells whether the process pid descends from another test
// process (a *.test binary other than this one): another package's or
// another checkout's study, running beside this test on a shared machine
// (a CI run here counted such a study's nodes as this one's leftovers).
// What this test's study leaves is this process's, or init's once
// orphaned, or a container's.
func anotherTests(pid string) bool {
	for range 64 {
		b, err := os.ReadFile(filepath.Join("/proc", pid, "stat"))
		if err != nil {
			return false
		}
		s := string(b)
		open, end := strings.IndexByte(s, '('), strings.LastIndexByte(s, ')')
		if open < 0 || end < open {
			return false
		}
		f := strings.Fields(s[end+1:]) // state, ppid, ...
		if strings.HasSuffix(s[open+1:end], ".test") && pid != strconv.Itoa(os.Getpid()) {
			return true
		}
		if len(f) < 2 || f[1] == "0" || f[1] == "1" || pid == strconv.Itoa(os.Getpid()) {
			return false
		}
		pid = f[1]
	}
	return false
}

// runIngest runs a small iot.ingest study in envs and returns its runs.
func runIngest(t *testing.T, envs string) (result, []store.Run) {
	t.Helper()
	dir := t.TempDir()
	spec := filepath.Join(dir, "ingest.yaml")
	err := os.WriteFile(spec, []byte(`name: ingest-e2e
repetitions: 1
warmup: 0
envs: [`+envs+`]
workloads:
  - name: iot.ingest
    params: {duration: 1s, devices: 300, nodes: 2}
factors:
  - name: placement      # the environment gets every CPU; affinity divides them
    levels: [shared]
  - name: affinity
    levels: [dedicated, shared]
`), 0o644)
	if err != nil {
		t.Fatal(err)
	}
	before := ingestProcesses()
	res := runOK(t, dir, "run", spec, "--settle", "0", "--monitor-interval", "0")
	for pid, cmd := range ingestProcesses() {
		if _, ok := before[pid]; !ok {
			t.Errorf("left running after the study: pid %s %s", pid, cmd)
		}
	}
	stdoutSays(t, res, "iot.ingest affinity=dedicated", "iot.ingest affinity=shared", "messages/s", "errors %", "node median us", "request-response Q3 ms")
	_, runs, _ := testenv.Stored(t, filepath.Join(dir, "boxtax.db"))
	return res, runs
}

// checkIngestRuns checks what every run recorded: both nodes took messages
// (round-robin) on the CPUs their affinity gives them.
func checkIngestRuns(t *testing.T, runs []store.Run, cpus cpuset.Set) {
	t.Helper()
	halves, _ := cpus.Split(2)
	for _, r := range runs {
		if r.Status != "ok" {
			t.Errorf("%s %v: %s %s", r.Env, r.Levels, r.Status, r.Reason)
			continue
		}
		want := "1:" + halves[0].String() + " 2:" + halves[1].String()
		if r.Levels["affinity"] == "shared" {
			want = "1:" + cpus.String() + " 2:" + cpus.String()
		}
		if got := r.Notes["server.node_cpus"]; got != want {
			t.Errorf("%s %s: nodes on %q, want %q", r.Env, r.Levels["affinity"], got, want)
		}
		if n := r.Notes["node_messages"]; !strings.HasPrefix(n, "1:") || !strings.Contains(n, " 2:") || strings.Contains(n, ":0") {
			t.Errorf("%s %s: node_messages %q, want both nodes busy", r.Env, r.Levels["affinity"], n)
		}
	}
}

// twoOnlineCPUs returns the online CPUs, skipping the test where there
// are fewer than 2 or they cannot be read.
func twoOnlineCPUs(t *testing.T) cpuset.Set {
	t.Helper()
	online, err := cpuset.Online()
	if err != nil || len(online) < 2 {
		t.Skipf("needs 2 online CPUs: %v %v", online, err)
	}
	return online
}

func TestIngestThroughTheCLINatively(t *testing.T) {
	requireIngestPrograms(t)
	online := twoOnlineCPUs(t)
	_, runs := runIngest(t, "native")
	if len(runs) != 2 {
		t.Fatalf("%d runs, want 2", len(runs))
	}
	checkIngestRuns(t, runs, online)
}

func TestIngestInContainers(t *testing.T) {
	requireIngestPrograms(t)
	c := testenv.RequireDocker(t)
	online := twoOnlineCPUs(t)
	_, runs := runIngest(t, "docker-bridge, docker-host")
	if len(runs) != 4 {
		t.Fatalf("%d runs, want 4", len(runs))
	}
	checkIngestRuns(t, runs, online)
	if left := containersOf(t, c, os.Getpid()); len(left) > 0 {
		t.Errorf("%d containers left behind", len(left))
	}
}
