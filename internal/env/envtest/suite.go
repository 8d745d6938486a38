// Package envtest holds the checks every environment's integration test
// runs (Docker's, Podman's, LXC's) with the fake worker of testdata.
package envtest

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/testenv"
)

// Checks that every container environment (Docker, Podman, LXC) passes,
// run by each one's integration test with the fake worker. labels, where
// not nil, mark the containers so that the test can find any left.

// New is the environment name, of those factories make, made with opts
// (env.Make); the test stops if it cannot be made.
func New(tb testing.TB, factories map[string]env.Factory, name string, opts env.Options) env.Environment {
	tb.Helper()
	base, v, err := env.ParseName(name)
	if err != nil {
		tb.Fatal(err)
	}
	f, ok := factories[base]
	if !ok {
		tb.Fatalf("no environment %s", base)
	}
	e, err := env.Make(base, f, opts, v)
	if err != nil {
		tb.Fatal(err)
	}
	return e
}

// NewPrepared is New's environment, prepared for runs.
func NewPrepared(tb testing.TB, factories map[string]env.Factory, name string, opts env.Options) env.Environment {
	tb.Helper()
	e := New(tb, factories, name, opts)
	Prepare(tb, e)
	return e
}

// Prepare prepares e for runs (env.Environment.Prepare), or stops the test.
func Prepare(tb testing.TB, e env.Environment) {
	tb.Helper()
	if err := e.Prepare(context.Background()); err != nil {
		tb.Fatal(err)
	}
}

// CheckWholeOutput runs the fake worker printing 2000 lines: stdout must
// arrive whole and in order, stderr apart. It returns the run's settings.
func CheckWholeOutput(t *testing.T, e env.Environment, labels map[string]string) map[string]string {
	t.Helper()
	const lines = 2000
	var stdout, stderr bytes.Buffer
	settings, err := env.Run(context.Background(), e, env.Spec{Args: []string{"lines", strconv.Itoa(lines)}, Labels: labels}, &stdout, &stderr)
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

// CheckSettings compares the settings of a run with want, key by key.
func CheckSettings(t *testing.T, settings, want map[string]string) {
	t.Helper()
	for key, want := range want {
		if settings[key] != want {
			t.Errorf("settings[%s] = %q, want %q", key, settings[key], want)
		}
	}
}

// CheckNonZeroExit: a worker that exits with code 3 is an error that says so.
func CheckNonZeroExit(t *testing.T, e env.Environment, labels map[string]string) {
	t.Helper()
	_, err := env.Run(context.Background(), e, env.Spec{Args: []string{"exit", "3"}, Labels: labels}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "exited with code 3") {
		t.Fatalf("error = %v, want exit code 3", err)
	}
}

// CheckScratchTmp: the worker can write in the container's /tmp.
func CheckScratchTmp(t *testing.T, e env.Environment, labels map[string]string) {
	t.Helper()
	var out bytes.Buffer
	if _, err := env.Run(context.Background(), e, env.Spec{Args: []string{"tmp"}, Labels: labels}, &out, os.Stderr); err != nil || out.String() != "ok\n" {
		t.Fatalf("Run = %q, %v; want ok", out.String(), err)
	}
}

// CapEffWithSysNice runs the fake worker with SYS_NICE added and returns
// its effective capabilities (CapEff).
func CapEffWithSysNice(t *testing.T, e env.Environment) uint64 {
	t.Helper()
	var out bytes.Buffer
	if _, err := env.Run(context.Background(), e, env.Spec{Args: []string{"caps"}, CapAdd: []string{"SYS_NICE"}}, &out, os.Stderr); err != nil {
		t.Fatal(err)
	}
	return ParseCapEff(t, out.String())
}

// ParseCapEff reads the fake worker's caps output, CapEff in hex.
func ParseCapEff(t *testing.T, out string) uint64 {
	t.Helper()
	capEff, err := strconv.ParseUint(strings.TrimSpace(out), 16, 64)
	if err != nil {
		t.Fatalf("CapEff %q: %v", out, err)
	}
	return capEff
}

// CheckStopEndsWait starts a worker that sleeps and stops it after delay:
// a Wait blocked on it returns at once, saying it was stopped.
func CheckStopEndsWait(t *testing.T, e env.Environment, labels map[string]string, delay time.Duration) {
	t.Helper()
	ctx := context.Background()
	inst, err := e.Start(ctx, env.Spec{Args: []string{"sleep", "60s"}, Labels: labels}, io.Discard, io.Discard)
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

// BuildFakeWorker compiles testdata/fakeworker as a static binary into dir.
func BuildFakeWorker(t testing.TB, dir string) string {
	t.Helper()
	testenv.RequireTool(t, "go", "golang-go")
	// This package's directory from the go command, not runtime.Caller: a
	// test binary built with -trimpath (the stripped CI run) records import
	// paths where the source files' paths would be.
	src, err := exec.Command("go", "list", "-f", "{{.Dir}}", "github.com/boxtax/boxtax/internal/env/envtest").Output()
	if err != nil {
		t.Fatalf("finding the fake worker's source: go list: %v", err)
	}
	bin := filepath.Join(dir, "fakeworker")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "./testdata/fakeworker")
	cmd.Dir = strings.TrimSpace(string(src))
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("building the fake worker: %v\n%s", err, out)
	}
	return bin
}

// FirstWrite closes Started at the first write; it is safe for the copying goroutine.
type FirstWrite struct {
	once    sync.Once
	Started chan struct{}
}

func (w *FirstWrite) Write(p []byte) (int, error) {
	w.once.Do(func() { close(w.Started) })
	return len(p), nil
}

// DeadController is a controller id no process has: boxtax's label on a
// container whose controller was killed.
const DeadController = "00000000-0000-0000-0000-000000000000:999999999:1"
