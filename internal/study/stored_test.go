package study

import (
	"context"
	"errors"
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

func TestStartOpenAndResume(t *testing.T) {
	ctx := context.Background()
	db := testenv.OpenStore(t, filepath.Join(t.TempDir(), "s.db"))
	if _, _, err := Resume(ctx, db); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("resume of an empty database: %v, want store.ErrNotFound", err)
	}
	spec := validSpec(t, "s.yaml", "name: s\nrepetitions: 2\nwarmup: 0\nenvs: [docker-bridge, native]\nworkloads: [test.a, test.b]\n")
	started, release, err := Start(ctx, db, spec, hostinfo.Host{Hostname: "box", KernelRelease: "6.1.0"})
	if err != nil {
		t.Fatal(err)
	}
	if spec.Seed == 0 || started.Seed != spec.Seed {
		t.Errorf("seed %d stored as %d: want one drawn and recorded", spec.Seed, started.Seed)
	}
	if _, _, err := Resume(ctx, db); !errors.Is(err, store.ErrStudyBusy) {
		t.Errorf("resume of a study being run: %v, want store.ErrStudyBusy", err)
	}
	release()

	s, err := Open(ctx, db, started.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.SpecErr != nil || s.Spec.Baseline != "native" {
		t.Errorf("stored spec: baseline %v (%v), want native", s.Spec, s.SpecErr)
	}
	if s.Host.Label() != "box" || s.Host.KernelRelease != "6.1.0" {
		t.Errorf("host facts %+v, want those Start was given", s.Host)
	}
	if len(s.Runs) != 8 || len(s.Runs) != len(started.Runs) || s.Status != store.StudyRunning {
		t.Errorf("%d runs (%d planned), status %s: want 2 envs x 2 workloads x 2 repetitions, running", len(s.Runs), len(started.Runs), s.Status)
	}
	resumed, release, err := Resume(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	release()
	if resumed.ID != started.ID || len(resumed.Runs) != len(s.Runs) {
		t.Errorf("resumed study %d with %d runs, want study %d with %d", resumed.ID, len(resumed.Runs), started.ID, len(s.Runs))
	}
	if _, err := Open(ctx, db, started.ID+1); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("open of an unknown study: %v, want store.ErrNotFound", err)
	}
}

func TestOpenKeepsAStudyWhoseSpecCannotBeRead(t *testing.T) {
	ctx := context.Background()
	db := testenv.OpenStore(t, filepath.Join(t.TempDir(), "s.db"))
	st := &store.Study{Name: "old", SpecYAML: "name: [", HostJSON: `{"hostname":"box"}`}
	if err := db.CreateStudy(ctx, st, []store.Run{{CellKey: "c", Workload: "test.a", Env: "native"}}); err != nil {
		t.Fatal(err)
	}
	s, err := Open(ctx, db, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s.Spec != nil || s.SpecErr == nil || len(s.Runs) != 1 || s.Host.Hostname != "box" {
		t.Errorf("spec %v, error %v, %d runs, host %q: want no spec, its error, the run and the host", s.Spec, s.SpecErr, len(s.Runs), s.Host.Hostname)
	}
}
