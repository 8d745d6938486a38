package study

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
	_ "github.com/boxtax/boxtax/internal/workload/all"
)

// lifecycleStudy is a real study, short: cpu.prime natively, and in
// docker-host, which the test makes unreachable.
const lifecycleStudy = `name: life
envs: [native, docker-host]
workloads: [{name: cpu.prime, params: {events: 200, max_prime: 2000}}]
repetitions: 2
warmup: 0
seed: 5
`

// lifecycleOptions are the options of a run of lifecycleStudy into a new
// database, with Docker out of reach, and the process that runs it.
func lifecycleOptions(t *testing.T) (Options, Process, *bytes.Buffer) {
	t.Helper()
	dir := t.TempDir()
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(dir, "no-docker.sock"))
	file := testenv.WriteFileIn(t, dir, "life.yaml", []byte(lifecycleStudy), 0o644)
	o := NewOptions()
	o.Study, o.DB, o.Settle, o.Monitors.Interval = file, filepath.Join(dir, "life.db"), 0, 0
	var log bytes.Buffer
	p := Process{Env: env.Options{BinaryPath: testenv.BoxtaxBinary(t), Version: "test"}, Log: &log}
	return o, p, &log
}

// TestRunDoesTheWholeStudy runs a study with no CLI in between: the
// unavailable environment is left out and recorded, the runs are done and
// stored in a real SQLite file, and the study is finished.
func TestRunDoesTheWholeStudy(t *testing.T) {
	testenv.SkipShort(t, "builds boxtax and runs a study natively")
	o, p, log := lifecycleOptions(t)
	o.SkipUnavailable, o.HostLabel = true, "bench-1"
	checked := 0
	p.Check = func(s *Spec) error { checked++; return nil }
	st, err := Run(context.Background(), o, p)
	if err != nil {
		t.Fatalf("%v\n%s", err, log)
	}
	if st.Status != store.StudyFinished || len(st.Runs) != 2 || st.Store != nil {
		t.Errorf("study %q with %d runs (store %v), want finished with 2 and no open store", st.Status, len(st.Runs), st.Store)
	}
	for _, r := range st.Runs {
		if r.Env != "native" || r.Status != store.RunOK {
			t.Errorf("run %d in %s: %s %s", r.Seq, r.Env, r.Status, r.Reason)
		}
	}
	if len(st.Samples) == 0 {
		t.Error("no samples stored")
	}
	if st.Host.Device != "bench-1" || st.Host.Unavailable["docker-host"] == "" {
		t.Errorf("host facts: device %q, unavailable %v", st.Host.Device, st.Host.Unavailable)
	}
	// The host facts are study.Run's own (no Process.Facts): the engine of
	// the environment left out is asked too, and tells why it could not be.
	if d := docker.FactsOf(st.Host); d == nil || d.Detail() == "" {
		t.Errorf("host facts: no Docker engine facts recorded for the unavailable docker-host: %+v", st.Host.Engines)
	}
	if checked != 1 || !strings.Contains(log.String(), "warning: environment docker-host is not available here") ||
		!strings.Contains(log.String(), "finished in") {
		t.Errorf("checked %d times; log:\n%s", checked, log)
	}
}

// TestRunRefusesBeforeStoring: what cannot run is refused, as a
// RefusedError, and no database is made for it.
func TestRunRefusesBeforeStoring(t *testing.T) {
	tests := []struct {
		name   string
		change func(o *Options, p *Process)
		want   string
	}{
		{"an unreachable environment", func(o *Options, p *Process) {}, "to run without it: --envs native"},
		{"nothing to resume", func(o *Options, p *Process) { o.Study, o.Resume = "", true }, "nothing to resume: no database at"},
		{"the caller's check", func(o *Options, p *Process) {
			p.Check = func(*Spec) error { return &RefusedError{errors.New("gate rule")} }
		}, "gate rule"},
		{"an unknown workload", func(o *Options, p *Process) { o.Workloads = []string{"no.such"} }, "valid"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, p, _ := lifecycleOptions(t)
			tt.change(&o, &p)
			st, err := Run(context.Background(), o, p)
			var refused *RefusedError
			if !errors.As(err, &refused) || !strings.Contains(err.Error(), tt.want) || st != nil {
				t.Fatalf("error %v (study %v), want refused: %q", err, st, tt.want)
			}
			if _, err := os.Stat(o.DB); tt.name != "an unreachable environment" && !errors.Is(err, os.ErrNotExist) {
				t.Errorf("a database was made: %v", err)
			}
		})
	}
}
