package cli

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/testenv"
)

// Helpers for the tests that run boxtax as a real process: started,
// interrupted, resumed, or run as an unprivileged user.

// startRun starts `boxtax run` as a real process with extra environment.
func startRun(t *testing.T, dir string, env []string, args ...string) (*exec.Cmd, *testenv.LockedBuffer) {
	t.Helper()
	cmd := exec.Command(boxtaxBin, undisturbed(append([]string{"run"}, args...))...)
	var stderr testenv.LockedBuffer // the process writes it while waitFor may read it
	cmd.Stderr, cmd.Dir, cmd.Env = &stderr, dir, append(os.Environ(), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd, &stderr
}

// waitForRunAndContainer waits until the study in dbPath has a finished
// run and the boxtax process pid has a container running: the moment a
// fault test strikes, with work both kept and in flight.
func waitForRunAndContainer(t *testing.T, c *docker.Client, dbPath string, pid int, stderr *testenv.LockedBuffer) {
	t.Helper()
	waitFor(t, 90*time.Second, "a finished run and a running container", stderr, func() bool {
		return okRuns(t, dbPath) >= 1 && len(containersOf(t, c, pid)) > 0
	})
}

// waitFor polls cond until it holds, failing the test after limit.
func waitFor(t *testing.T, limit time.Duration, what string, stderr *testenv.LockedBuffer, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(limit)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("%s did not happen within %v; stderr:\n%s", what, limit, stderr.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// interruptRun starts `boxtax run spec` on the database dbPath and sends it
// SIGINT once ready(pid) holds (within 90 s) and 700 ms more have passed,
// into the transfer; it must exit as interrupted. It returns the pid.
func interruptRun(t *testing.T, dir, dbPath, spec, what string, ready func(pid int) bool) int {
	t.Helper()
	cmd, stderr := startRun(t, dir, nil, spec, "--db", dbPath, "--seed", "2", "--settle", "0", "--monitor-interval", "0")
	pid := cmd.Process.Pid
	waitFor(t, 90*time.Second, what, stderr, func() bool { return ready(pid) })
	time.Sleep(700 * time.Millisecond) // into the transfer
	interrupt(t, cmd, stderr)
	return pid
}

// interruptRemovesEnv interrupts `boxtax run spec` (see interruptRun) once
// ready holds, then wants nothing left of the environment's objects
// (envLeftovers; kind names them in the message) nor of the wire, and the
// study to resume to want finished runs.
func interruptRemovesEnv(t *testing.T, spec, what, kind string, envLeftovers func(*testing.T, int) []string, ready func(pid int) bool, want int) {
	t.Helper()
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "s.db")
	pid := interruptRun(t, dir, dbPath, spec, what, ready)
	if left := envLeftovers(t, pid); len(left) > 0 {
		t.Errorf("%s objects left behind after SIGINT:\n%s", kind, strings.Join(left, "\n"))
	}
	if left := leftovers(t, pid); len(left) > 0 {
		t.Errorf("wire objects left behind after SIGINT:\n%s", strings.Join(left, "\n"))
	}
	resumeFinishes(t, dir, dbPath, want)
}

// resumeFinishes resumes the study in dbPath, which must then have want
// finished runs.
func resumeFinishes(t *testing.T, dir, dbPath string, want int) {
	t.Helper()
	runOK(t, dir, "run", "--resume", "--db", dbPath, "--settle", "0", "--monitor-interval", "0")
	if n := okRuns(t, dbPath); n != want {
		t.Errorf("%d ok runs after resume, want %d", n, want)
	}
}

// refusedBeforeStudy runs a study in envs, which boxtax must refuse
// before it starts (nothing stored), as a usage error whose message holds
// each of want.
func refusedBeforeStudy(t *testing.T, dir, envs string, want ...string) {
	t.Helper()
	start := time.Now()
	res := runIn(t, dir, "run", "--envs", envs, "--workloads", "cpu.prime", "--settle", "0", "--monitor-interval", "0")
	if res.code != ExitUsage {
		t.Fatalf("exit %d, want %d\n%s", res.code, ExitUsage, res.stderr)
	}
	for _, w := range want {
		if !strings.Contains(res.stderr, w) {
			t.Errorf("message lacks %q:\n%s", w, res.stderr)
		}
	}
	if r := runIn(t, dir, "report"); r.code == ExitOK {
		t.Errorf("a study was stored although it was refused:\n%s", r.stdout)
	}
	// A hang, not speed: a busy machine (the study itself would end in
	// minutes, and stores what it ran).
	if took := time.Since(start); took > time.Minute {
		t.Errorf("the refusal took %v", took)
	}
}

// slowRun is `boxtax run slow.yaml` (two workloads in native and Docker,
// slow enough to strike mid-run) as a real process in a new directory.
type slowRun struct {
	c      *docker.Client
	dir    string
	db     string
	cmd    *exec.Cmd
	stderr *testenv.LockedBuffer
	pid    int
}

// startSlowRun starts slow.yaml into dbName with the seed, extra flags and
// environment, and waits for a finished run and a running container of it
// (waitForRunAndContainer) unless the test waits for something else.
func startSlowRun(t *testing.T, env []string, dbName, seed string, waitForContainer bool, extra ...string) slowRun {
	t.Helper()
	c := testenv.RequireDocker(t)
	dir := t.TempDir()
	return startSlowRunIn(t, c, dir, env, dbName, seed, waitForContainer, extra...)
}

// startSlowRunIn is startSlowRun in dir, on the engine c.
func startSlowRunIn(t *testing.T, c *docker.Client, dir string, env []string, dbName, seed string, waitForContainer bool, extra ...string) slowRun {
	t.Helper()
	r := slowRun{c: c, dir: dir, db: filepath.Join(dir, dbName)}
	args := append([]string{testdata(t, "slow.yaml"), "--db", r.db, "--seed", seed, "--settle", "0"}, extra...)
	r.cmd, r.stderr = startRun(t, dir, env, args...)
	r.pid = r.cmd.Process.Pid
	if waitForContainer {
		waitForRunAndContainer(t, c, r.db, r.pid, r.stderr)
	}
	return r
}

// startBoxtax starts boxtax with args as a real process; waited receives
// its end, and it is killed at the end of the test if still running.
func startBoxtax(t *testing.T, args ...string) (cmd *exec.Cmd, stderr *testenv.LockedBuffer, waited <-chan error) {
	t.Helper()
	cmd = exec.Command(boxtaxBin, undisturbed(args)...)
	stderr = &testenv.LockedBuffer{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	return cmd, stderr, done
}

// interruptWithin sends SIGINT after a while and wants the process to end
// as interrupted within limit; what says what it was doing.
func interruptWithin(t *testing.T, cmd *exec.Cmd, stderr *testenv.LockedBuffer, waited <-chan error, after, limit time.Duration, what string) {
	t.Helper()
	time.Sleep(after)
	cmd.Process.Signal(syscall.SIGINT)
	select {
	case err := <-waited:
		wantExit(t, err, ExitInterrupted, stderr.String())
	case <-time.After(limit):
		t.Fatalf("%s did not stop within %v of SIGINT; stderr:\n%s", what, limit, stderr.String())
	}
}

// interrupt sends cmd SIGINT, as Ctrl-C does, and wants it to end as
// interrupted; it returns how long it took to end.
func interrupt(t *testing.T, cmd *exec.Cmd, stderr *testenv.LockedBuffer) time.Duration {
	t.Helper()
	start := time.Now()
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	took := time.Since(start)
	wantExit(t, err, ExitInterrupted, stderr.String())
	return took
}

// wantExit stops the test unless err, how a boxtax process ended, is exit
// code; output is what it wrote, shown if not.
func wantExit(t *testing.T, err error, code int, output string) {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != code {
		t.Fatalf("ended with %v, want exit %d; output:\n%s", err, code, output)
	}
}

// ownGroup makes cmd, once started, lead a process group of its own, so
// that killGroup ends it with every process it started.
func ownGroup(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} }

// killGroup kills cmd's process group (see ownGroup).
func killGroup(cmd *exec.Cmd) { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
