package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestBadInputExitsTwoAndListsValidNames(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		name string
		args []string
		want []string
	}{
		{"unknown command", []string{"rnu"}, []string{`unknown command "rnu"`, "run"}},
		{"unknown study", []string{"run", "quik"}, []string{`unknown study "quik"`, "quick"}},
		{"unknown workload", []string{"run", "--workloads", "cpu.primes"}, []string{`unknown workload "cpu.primes"`, "cpu.linpack, cpu.prime, ctr.startup, disk.iozone, disk.rand"}},
		{"unknown env", []string{"run", "--envs", "podman"}, []string{`unknown environment "podman"`, "native, docker-bridge, docker-host"}},
		{"unknown param", []string{"run", testdata(t, "broken.yaml")}, []string{"broken.yaml:4:5:", "unknown parameter(s) duraton", "valid parameters: max_prime, duration, events, threads"}},
		{"missing file", []string{"run", "./nope.yaml"}, []string{"nope.yaml"}},
		{"not a study file", []string{"run", "/dev/zero"}, []string{"reading study /dev/zero", "larger than 4 MiB"}},
		{"overflowing param", []string{"run", testdata(t, "overflow.yaml")}, []string{"max_prime: 9223372036854775807 is out of range", "9007199254740992"}},
		{"unknown list", []string{"list", "things"}, []string{`cannot list "things"`, "workloads, envs, options, studies"}},
		{"no database", []string{"report"}, []string{"no database at boxtax.db"}},
		{"resume nothing", []string{"run", "--resume", "--db", "empty.db"}, []string{"nothing to resume"}},
		{"bad flag", []string{"run", "--reps", "many"}, []string{`--reps "many": want a whole number`, "usage: boxtax run [STUDY] [flags]; boxtax help run for more"}},
		{"negative reps", []string{"run", "--reps", "-3"}, []string{"want a whole number from 1"}},
		{"negative warmup", []string{"run", "--warmup", "-2"}, []string{"--warmup must be 0 or more, not -2"}},
		{"warmup -1", []string{"run", "--warmup", "-1"}, []string{"--warmup must be 0 or more, not -1"}},
		{"negative settle", []string{"run", "--settle", "-1s"}, []string{"--settle must be 0 or more, not -1s"}},
		{"negative monitor interval", []string{"run", "--monitor-interval", "-5ms"}, []string{"--monitor-interval must be 0 or more, not -5ms"}},
		{"empty database", []string{"run", "--db", ""}, []string{"--db needs a path"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runExits(t, dir, ExitUsage, tt.args, tt.want...)
		})
	}
}

func TestYAMLSyntaxErrorNamesFileAndLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.yaml")
	os.WriteFile(path, []byte("name: s\nenvs: [native\nworkloads: [cpu.prime]\n"), 0o644)
	res := runIn(t, dir, "run", path)
	if res.code != ExitUsage || !strings.Contains(res.stderr, path+":2: did not find expected ',' or ']'") {
		t.Fatalf("exit %d stderr %s", res.code, res.stderr)
	}
}

func TestDockerUnreachableSaysWhatToDoQuickly(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(dir, "no-docker.sock"))
	start := time.Now()
	res := runIn(t, dir, "run", "--envs", "native,docker-bridge", "--workloads", "cpu.prime")
	// Before the study (which would take minutes), not after it: 30 s for
	// a busy machine (a liveness bound, not a speed).
	if took := time.Since(start); took > 30*time.Second {
		t.Errorf("took %s to say Docker is unreachable", took)
	}
	stderrSays(t, res, "environment docker-bridge is not available", "no-docker.sock", "DOCKER_HOST", "--envs native")
	if res.code != ExitUsage {
		t.Errorf("exit %d", res.code)
	}
	if _, err := os.Stat(filepath.Join(dir, "boxtax.db")); err == nil {
		// The database may exist, but no study may have been started.
		if r := runIn(t, dir, "report"); r.code == ExitOK {
			t.Error("a study was stored although it could not run")
		}
	}
}

func TestListAndSysinfo(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"list", "workloads"}, []string{"cpu.prime", "cpu.linpack", "mem.stream", "mem.mbw", "disk.seq", "disk.rand", "sysbench cpu"}},
		{[]string{"list", "envs"}, []string{"native", "yes", "docker-bridge", "docker-host"}},
		{[]string{"list", "studies"}, []string{"quick"}},
		{[]string{"sysinfo", "--format", "json"}, []string{`"kernel_release"`, `"cpus"`, `"preemption"`}},
		{[]string{"version"}, []string{"boxtax test"}},
	} {
		res := runIn(t, dir, tt.args...)
		if res.code != ExitOK {
			t.Errorf("%v: exit %d: %s", tt.args, res.code, res.stderr)
		}
		for _, w := range tt.want {
			if !strings.Contains(res.stdout, w) {
				t.Errorf("%v does not print %q:\n%s", tt.args, w, res.stdout)
			}
		}
	}
}

func TestFailedRunIsRecordedAndStudyGoesOn(t *testing.T) {
	dir := t.TempDir()
	res := runIn(t, dir, "run", testdata(t, "failing.yaml"), "--seed", "5", "--settle", "0")
	if res.code != ExitRunsFailed {
		t.Fatalf("exit %d, want %d\nstderr: %s", res.code, ExitRunsFailed, res.stderr)
	}
	if !strings.Contains(res.stdout, "cpu.prime") || !strings.Contains(res.stdout, "failed runs:") || !strings.Contains(res.stdout, "/nonexistent/boxtax") {
		t.Errorf("table lacks the good run or the failure reason:\n%s", res.stdout)
	}
	rep := runIn(t, dir, "report", "--format", "json")
	if rep.code != ExitOK || !strings.Contains(rep.stdout, `"failed": 1`) || !strings.Contains(rep.stdout, `"ok": 1`) {
		t.Errorf("report: exit %d\n%s", rep.code, rep.stdout)
	}
}
