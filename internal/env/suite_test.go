package env

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/testenv"
)

// Checks that every container environment (Docker, Podman, LXC) passes,
// run by each one's integration test with the fake worker. labels, where
// not nil, mark the containers so that the test can find any left.

// newEnv is the environment name made with opts (New); the test stops if
// it cannot be made.
func newEnv(tb testing.TB, name string, opts Options) Environment {
	tb.Helper()
	e, err := New(name, opts)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// newPrepared is newEnv's environment, prepared for runs.
func newPrepared(tb testing.TB, name string, opts Options) Environment {
	tb.Helper()
	e := newEnv(tb, name, opts)
	prepare(tb, e)
	return e
}

// prepare prepares e for runs (Environment.Prepare), or stops the test.
func prepare(tb testing.TB, e Environment) {
	tb.Helper()
	if err := e.Prepare(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

// checkWholeOutput runs the fake worker printing 2000 lines: stdout must
// arrive whole and in order, stderr apart. It returns the run's settings.
func checkWholeOutput(t *testing.T, e Environment, labels map[string]string) map[string]string {
	t.Helper()
	const lines = 2000
	var stdout, stderr bytes.Buffer
	settings, err := Run(context.Background(), e, Spec{Args: []string{"lines", strconv.Itoa(lines)}, Labels: labels}, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	var want strings.Builder
	for i := 1; i <= lines; i++ {
		fmt.Fprintf(&want, "line %d\n", i)
	}
	if stdout.String() != want.String() {
		t.Errorf("stdout has %d bytes, want %d: lines lost or out of order", stdout.Len(), want.Len())
	}
	if stderr.String() != "to stderr\n" {
		t.Errorf("stderr = %q", stderr.String())
	}
	return settings
}

// checkSettings compares the settings of a run with want, key by key.
func checkSettings(t *testing.T, settings, want map[string]string) {
	t.Helper()
	for key, want := range want {
		if settings[key] != want {
			t.Errorf("settings[%s] = %q, want %q", key, settings[key], want)
		}
	}
}

// checkNonZeroExit: a worker that exits with code 3 is an error that says so.
func checkNonZeroExit(t *testing.T, e Environment, labels map[string]string) {
	t.Helper()
	_, err := Run(context.Background(), e, Spec{Args: []string{"exit", "3"}, Labels: labels}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "exited with code 3") {
		t.Fatalf("error = %v, want exit code 3", err)
	}
}

// checkScratchTmp: the worker can write in the container's /tmp.
func checkScratchTmp(t *testing.T, e Environment, labels map[string]string) {
	t.Helper()
	var out bytes.Buffer
	if _, err := Run(context.Background(), e, Spec{Args: []string{"tmp"}, Labels: labels}, &out, os.Stderr); err != nil || out.String() != "ok\n" {
		t.Fatalf("Run = %q, %v; want ok", out.String(), err)
	}
}

// capEffWithSysNice runs the fake worker with SYS_NICE added and returns
// its effective capabilities (CapEff).
func capEffWithSysNice(t *testing.T, e Environment) uint64 {
	t.Helper()
	var out bytes.Buffer
	if _, err := Run(context.Background(), e, Spec{Args: []string{"caps"}, CapAdd: []string{"SYS_NICE"}}, &out, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return parseCapEff(t, out.String())
}

// parseCapEff reads the fake worker's caps output, CapEff in hex.
func parseCapEff(t *testing.T, out string) uint64 {
	t.Helper()
	capEff, err := strconv.ParseUint(strings.TrimSpace(out), 16, 64)
	if err != nil {
		t.Fatalf("CapEff %q: %v", out, err)
	}
	return capEff
}

// checkStopEndsWait starts a worker that sleeps and stops it after delay:
// a Wait blocked on it returns at once, saying it was stopped.
func checkStopEndsWait(t *testing.T, e Environment, labels map[string]string, delay time.Duration) {
	t.Helper()
	ctx := context.Background()
	inst, err := e.Start(ctx, Spec{Args: []string{"sleep", "60s"}, Labels: labels}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	waited := make(chan error, 1)
	go func() { waited <- inst.Wait() }()
	time.Sleep(delay)
	if err := inst.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	if err := testenv.Receive(t, waited, 5*time.Second, "Wait still blocks after Stop returned"); err == nil || !strings.Contains(err.Error(), "stopped before it exited") {
		t.Errorf("Wait = %v, want an error saying the container was stopped", err)
	}
}
