package study

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"sync"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// scriptedEnv is an environment whose "worker" prints a hello, one sample of
// rate and done, without starting anything: the adaptive loop's logic under
// test, not a workload.
type scriptedEnv struct {
	name string
	mu   sync.Mutex
	n    int
	base float64 // the value around which it reports rate; 0: 100
	tick func()  // called at each start, e.g. to move a test's clock on
}

func (e *scriptedEnv) Name() string                    { return e.name }
func (e *scriptedEnv) Description() string             { return "scripted test environment" }
func (e *scriptedEnv) Available(context.Context) error { return nil }
func (e *scriptedEnv) Prepare(context.Context) error   { return nil }
func (e *scriptedEnv) Start(_ context.Context, _ env.Spec, stdout, _ io.Writer) (env.Instance, error) {
	e.mu.Lock()
	e.n++
	base := e.base
	if base == 0 {
		base = 100
	}
	v := base + float64(e.n%3)
	if e.tick != nil {
		e.tick()
	}
	e.mu.Unlock()
	fmt.Fprintf(stdout, "{\"kind\":\"hello\"}\n{\"kind\":\"sample\",\"metric\":\"rate\",\"value\":%g}\n{\"kind\":\"done\"}\n", v)
	return doneInstance{}, nil
}

type doneInstance struct{}

func (doneInstance) Settings() env.Settings     { return env.Settings{} }
func (doneInstance) Wait() error                { return nil }
func (doneInstance) Stop(context.Context) error { return nil }

type quietProgress struct{}

func (quietProgress) Begin(int, int)       {}
func (quietProgress) RunStarted(store.Run) {}
func (quietProgress) RunEnded(store.Run)   {}
func (quietProgress) End()                 {}

// adaptiveSpec is a study of 4 cells a round (test.a at two thread levels,
// natively and in docker-host) that adds rounds up to maxRepetitions until
// its overheads are known within precisionPct.
func adaptiveSpec(precisionPct, maxRepetitions string) string {
	return `
name: adaptive
repetitions: 2
warmup: 1
seed: 7
envs: [native, docker-host]
workloads: [test.a]
factors:
  - {name: threads, levels: [1, 2]}
adaptive: {precision_pct: ` + precisionPct + `, max_repetitions: ` + maxRepetitions + `}
`
}

func newAdaptiveStudy(t *testing.T) (*Runner, store.Study, []store.Run) {
	t.Helper()
	s, db, st, runs := storedPlan(t, "adaptive.yaml", adaptiveSpec("2", "5"))
	r := &Runner{Store: db, Spec: s, Progress: quietProgress{},
		Envs: map[string]env.Environment{"native": &scriptedEnv{name: "native"}, "docker-host": &scriptedEnv{name: "docker-host"}}}
	return r, st, runs
}

func TestAdaptiveAddsWholeRoundsUntilReached(t *testing.T) {
	tests := []struct {
		name       string
		reachAfter int // rounds after which reached says yes; 0: never
		wantRounds int
	}{
		{"reached after 3 rounds", 3, 3},
		{"reached at once", 2, 2},
		{"never reached: stops at the maximum", 0, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, st, runs := newAdaptiveStudy(t)
			ctx := context.Background()
			calls := 0
			_, err := r.ExecuteAdaptive(ctx, st, runs, Stopping{Judge: func(ctx context.Context) (result.Decisions, error) {
				calls++
				stored, err := r.Store.Runs(ctx, st.ID)
				if err != nil {
					return result.Decisions{}, err
				}
				return result.Decisions{Done: tt.reachAfter > 0 && result.MeasuredRounds(stored) >= tt.reachAfter}, nil
			}})
			if err != nil {
				t.Fatal(err)
			}
			checkRounds(t, r, st, tt.wantRounds)
			checkEachRunOnce(t, r, st)
		})
	}
}

// checkRounds verifies the stored study: finished, every round complete
// (each of the 4 cells once), sequence numbers unique and in plan order,
// and the same order a plan of that many rounds gives.
func checkRounds(t *testing.T, r *Runner, st store.Study, want int) {
	t.Helper()
	ctx := context.Background()
	got, err := r.Store.Study(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != store.StudyFinished {
		t.Errorf("study status %q, want finished", got.Status)
	}
	stored, err := r.Store.Runs(ctx, st.ID)
	if err != nil {
		t.Fatal(err)
	}
	if n := result.MeasuredRounds(stored); n != want {
		t.Fatalf("%d rounds, want %d", n, want)
	}
	perRound := map[int]map[string]bool{}
	for i, run := range stored {
		if run.Status != store.RunOK {
			t.Errorf("run %d: %s %s", run.Seq, run.Status, run.Reason)
		}
		if run.Seq != i {
			t.Errorf("run %d has seq %d", i, run.Seq)
		}
		if run.Warmup {
			continue
		}
		if perRound[run.Rep] == nil {
			perRound[run.Rep] = map[string]bool{}
		}
		if perRound[run.Rep][run.CellKey] {
			t.Errorf("round %d runs %s twice", run.Rep, run.CellKey)
		}
		perRound[run.Rep][run.CellKey] = true
	}
	for rep, cells := range perRound {
		if len(cells) != 4 {
			t.Errorf("round %d holds %d cells, want all 4", rep, len(cells))
		}
	}
	more := *r.Spec
	more.Repetitions = want
	plan, _ := more.Plan(st.Seed)
	for i := range plan {
		if i < len(stored) && plan[i].CellKey != stored[i].CellKey {
			t.Fatalf("run %d is %s, a plan of %d rounds has %s there", i, stored[i].CellKey, want, plan[i].CellKey)
		}
	}
}

func TestAdaptiveResumesWhereItStopped(t *testing.T) {
	r, st, runs := newAdaptiveStudy(t)
	ctx, cancel := context.WithCancel(context.Background())
	// Interrupted when the first check comes: the study stops interrupted.
	_, err := r.ExecuteAdaptive(ctx, st, runs, Stopping{Judge: func(context.Context) (result.Decisions, error) {
		cancel()
		return result.Decisions{}, ctx.Err()
	}})
	if err == nil {
		t.Fatal("no error after the interruption")
	}
	if got, _ := r.Store.Study(context.Background(), st.ID); got.Status != store.StudyInterrupted {
		t.Fatalf("status %q, want interrupted", got.Status)
	}
	stored, err := r.Store.Runs(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = r.ExecuteAdaptive(context.Background(), st, stored, Stopping{Judge: func(ctx context.Context) (result.Decisions, error) {
		now, err := r.Store.Runs(ctx, st.ID)
		return result.Decisions{Done: result.MeasuredRounds(now) >= 4}, err
	}})
	if err != nil {
		t.Fatal(err)
	}
	checkRounds(t, r, st, 4)
	checkEachRunOnce(t, r, st)
}

// checkEachRunOnce: the environments started as many workers as the study
// has runs: no run was done twice when rounds were added.
func checkEachRunOnce(t *testing.T, r *Runner, st store.Study) {
	t.Helper()
	stored, err := r.Store.Runs(context.Background(), st.ID)
	if err != nil {
		t.Fatal(err)
	}
	started := 0
	for _, e := range r.Envs {
		started += e.(*scriptedEnv).n
	}
	if started != len(stored) {
		t.Errorf("%d workers started for %d runs: runs were done again", started, len(stored))
	}
}

// storedPlan validates the study of yaml, plans its runs and stores both in
// a new database.
func storedPlan(t *testing.T, name, yaml string) (*Spec, *store.Store, store.Study, []store.Run) {
	t.Helper()
	s := validSpec(t, name, yaml)
	db := testenv.OpenStore(t, filepath.Join(t.TempDir(), "s.db"))
	runs, err := s.Plan(s.Seed)
	if err != nil {
		t.Fatal(err)
	}
	st := store.Study{Name: s.Name, SpecYAML: s.YAML(), Seed: s.Seed}
	if err := db.CreateStudy(context.Background(), &st, runs); err != nil {
		t.Fatal(err)
	}
	return s, db, st, runs
}
