package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
)

// newStudyDB makes a database with one study of three runs on host: two
// finished (one with a series), one pending.
func newStudyDB(t *testing.T, path, host string) (*Store, []Run) {
	t.Helper()
	ctx := context.Background()
	s := openForTest(t, Open, path)
	st := &Study{Name: "quick", SpecYAML: "name: quick\n", Seed: 3, HostJSON: fmt.Sprintf(`{"hostname":%q}`, host)}
	runs := []Run{
		{Seq: 0, CellKey: "w|env=native", Workload: "w", Env: "native", Levels: map[string]string{"env": "native"}, Params: map[string]any{}},
		{Seq: 1, CellKey: "w|env=docker-host", Workload: "w", Env: "docker-host", Levels: map[string]string{"env": "docker-host"}, Params: map[string]any{}},
		{Seq: 2, CellKey: "w|env=native", Workload: "w", Env: "native", Levels: map[string]string{"env": "native"}, Params: map[string]any{}, Rep: 1},
	}
	if err := s.CreateStudy(ctx, st, runs); err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		r := runs[i]
		r.Status = RunOK
		smp := []Sample{{Metric: "rate", Value: float64(10 + i), Unit: "1/s"}, {Instance: 1, Metric: "rate", Value: float64(5 + i), Unit: "1/s"}}
		var ser []Series
		if i == 0 {
			ser = []Series{{Name: "lat", Unit: "ns", Values: []float64{1, 2, 3}}}
		}
		if err := s.FinishRun(ctx, &r, smp, ser); err != nil {
			t.Fatal(err)
		}
	}
	return s, runs
}

func count(t *testing.T, s *Store, table string) int {
	t.Helper()
	var n int
	if err := s.db.QueryRow(`SELECT COUNT(*) FROM ` + table).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

func TestMergeRenumbersAndIsIdempotent(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	a, _ := newStudyDB(t, filepath.Join(dir, "a.db"), "pi3")
	a.Close()
	b, _ := newStudyDB(t, filepath.Join(dir, "b.db"), "pi4")
	b.Close()
	out := openForTest(t, Open, filepath.Join(dir, "out.db"))
	for _, tc := range []struct {
		name          string
		input         string
		added, update int
		studies, runs int
	}{
		{"first input", "a.db", 1, 0, 1, 3},
		{"second input, same ids", "b.db", 1, 0, 2, 6},
		{"first input again adds nothing", "a.db", 0, 0, 2, 6},
		{"second input again adds nothing", "b.db", 0, 0, 2, 6},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := out.Merge(ctx, filepath.Join(dir, tc.input))
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Added) != tc.added || len(res.Updated) != tc.update {
				t.Errorf("added %d updated %d, want %d %d", len(res.Added), len(res.Updated), tc.added, tc.update)
			}
			if got := count(t, out, "studies"); got != tc.studies {
				t.Errorf("studies = %d, want %d", got, tc.studies)
			}
			if got := count(t, out, "runs"); got != tc.runs {
				t.Errorf("runs = %d, want %d", got, tc.runs)
			}
			if got := count(t, out, "samples"); got != 4*tc.studies {
				t.Errorf("samples = %d, want %d", got, 4*tc.studies)
			}
			if got := count(t, out, "series"); got != tc.studies {
				t.Errorf("series chunks = %d, want %d", got, tc.studies)
			}
		})
	}
	// The second study got new ids and kept its host facts, runs and series.
	sts, err := out.Studies(ctx)
	if err != nil || len(sts) != 2 {
		t.Fatalf("studies: %v %v", sts, err)
	}
	if sts[1].ID != 2 || sts[1].HostJSON != `{"hostname":"pi4"}` {
		t.Errorf("second study: %+v", sts[1])
	}
	runs, err := out.Runs(ctx, sts[1].ID)
	if err != nil || len(runs) != 3 || runs[0].ID != 4 || runs[0].Status != RunOK || runs[2].Status != RunPending {
		t.Fatalf("runs of the second study: %+v %v", runs, err)
	}
	ser, err := out.ReadSeries(ctx, runs[0].ID, "lat")
	if err != nil || len(ser.Values) != 3 || ser.Values[2] != 3 {
		t.Errorf("series: %+v %v", ser, err)
	}
	smp, err := out.Samples(ctx, sts[1].ID)
	if err != nil || len(smp) != 4 || smp[0].RunID != 4 || smp[1].Instance != 1 {
		t.Errorf("samples: %+v %v", smp, err)
	}
	uidA, _ := out.StudyUID(ctx, sts[0].ID)
	uidB, _ := out.StudyUID(ctx, sts[1].ID)
	if uidA == "" || uidA == uidB || len(uidA) != 36 || uidA[14] != '4' {
		t.Errorf("uids %q %q: want two different version 4 UUIDs", uidA, uidB)
	}
}

func TestMergeUpdatesAStudyResumedSince(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	in, runs := newStudyDB(t, filepath.Join(dir, "pi.db"), "pi")
	defer in.Close()
	out := openForTest(t, Open, filepath.Join(dir, "out.db"))
	if _, err := out.Merge(ctx, in.Path()); err != nil {
		t.Fatal(err)
	}
	// The device finishes the pending run (run --resume) and the study.
	r := runs[2]
	r.Status = RunOK
	if err := in.FinishRun(ctx, &r, []Sample{{Metric: "rate", Value: 12, Unit: "1/s"}}, nil); err != nil {
		t.Fatal(err)
	}
	if err := in.SetStudyStatus(ctx, runs[2].StudyID, StudyFinished); err != nil {
		t.Fatal(err)
	}
	res, err := out.Merge(ctx, in.Path())
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Updated) != 1 || res.Updated[0].ToID != 1 || len(res.Added) != 0 {
		t.Fatalf("merge after resume: %+v", res)
	}
	st, _ := out.Study(ctx, 1)
	got, _ := out.Runs(ctx, 1)
	if st.Status != StudyFinished || len(got) != 3 || got[2].Status != RunOK || count(t, out, "samples") != 5 {
		t.Errorf("after the update: study %s, runs %+v, %d samples", st.Status, got, count(t, out, "samples"))
	}
	// A third merge finds nothing new.
	if res, err = out.Merge(ctx, in.Path()); err != nil || len(res.Skipped) != 1 {
		t.Errorf("third merge: %+v %v", res, err)
	}
}

// TestOldDatabaseGetsTheSameUIDEitherWay: a schema 1 file merged as it is and
// merged after its upgrade is the same study.
func TestOldDatabaseGetsTheSameUIDEitherWay(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	old := filepath.Join(dir, "old.db")
	raw, err := sql.Open("sqlite", old)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{schema,
		`INSERT INTO studies (name, spec_yaml, seed, host_json, status, created_at) VALUES ('quick', 'name: quick', 1, '{}', 'finished', 1700000000000000000)`,
		`INSERT INTO runs (study_id, seq, cell_key, workload, env, levels_json, params_json, rep, warmup, status) VALUES (1, 0, 'w', 'w', 'native', '{}', '{}', 0, 0, 'ok')`,
		`INSERT INTO samples (run_id, metric, value, unit) VALUES (1, 'rate', 1.5, '1/s')`,
		`PRAGMA user_version = 1`} {
		if _, err := raw.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	raw.Close()
	out := openForTest(t, Open, filepath.Join(dir, "out.db"))
	res, err := out.Merge(ctx, old) // read as it is: the uid is derived
	if err != nil || len(res.Added) != 1 {
		t.Fatalf("merge of the old file: %+v %v", res, err)
	}
	up, err := Open(ctx, old) // upgraded in place: the same uid, stored
	if err != nil {
		t.Fatal(err)
	}
	uid, err := up.StudyUID(ctx, 1)
	up.Close()
	if err != nil || uid != res.Added[0].UID {
		t.Fatalf("upgraded uid %q, merged as %q (%v)", uid, res.Added[0].UID, err)
	}
	if res, err = out.Merge(ctx, old); err != nil || len(res.Skipped) != 1 || len(res.Added) != 0 {
		t.Errorf("merge after the upgrade: %+v %v", res, err)
	}
}

func TestMergeRefusesWhatIsNotABoxtaxDatabase(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good, _ := newStudyDB(t, filepath.Join(dir, "good.db"), "pi")
	good.Close()
	goodBytes, err := os.ReadFile(filepath.Join(dir, "good.db"))
	if err != nil {
		t.Fatal(err)
	}
	foreign := filepath.Join(dir, "foreign.db")
	raw, _ := sql.Open("sqlite", foreign)
	if _, err := raw.Exec(`CREATE TABLE studies (id INTEGER PRIMARY KEY, title TEXT)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	damaged := append([]byte{}, goodBytes...)
	for i := 4096; i < len(damaged) && i < 4096*3; i++ { // the second and third pages
		damaged[i] = 0xa5
	}
	inputs := map[string][]byte{
		"text.db":      []byte("host,value\npi,1\n"),
		"empty.db":     {},
		"truncated.db": goodBytes[:len(goodBytes)/3],
		"damaged.db":   damaged,
	}
	for name, b := range inputs {
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := openForTest(t, Open, filepath.Join(dir, "out.db"))
	if _, err := out.Merge(ctx, filepath.Join(dir, "good.db")); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"text.db", "empty.db", "truncated.db", "damaged.db", "foreign.db", "missing.db", "."} {
		t.Run(name, func(t *testing.T) {
			_, err := out.Merge(ctx, filepath.Join(dir, name))
			if err == nil {
				t.Fatal("merged without an error")
			}
			if name != "missing.db" && !errors.Is(err, ErrNotBoxtax) {
				t.Errorf("error %v: want %v", err, ErrNotBoxtax)
			}
			if count(t, out, "studies") != 1 || count(t, out, "runs") != 3 || count(t, out, "samples") != 4 {
				t.Errorf("the output changed")
			}
		})
	}
	if _, err := out.Merge(ctx, out.Path()); err == nil {
		t.Error("merged the output into itself")
	}
}

// TestConcurrentMergesTakeTurns: merges into one file from several
// connections at once each add every study once.
func TestConcurrentMergesTakeTurns(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	var inputs []string
	for i := range 4 {
		p := filepath.Join(dir, fmt.Sprintf("in%d.db", i))
		s, _ := newStudyDB(t, p, fmt.Sprintf("dev%d", i))
		s.Close()
		inputs = append(inputs, p)
	}
	outPath := filepath.Join(dir, "out.db")
	var wg sync.WaitGroup
	errs := make(chan error, 8)
	for w := range 8 { // every input twice, from separate handles
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := Open(ctx, outPath)
			if err != nil {
				errs <- err
				return
			}
			defer s.Close()
			if _, err := s.Merge(ctx, inputs[w%4]); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	out := openForTest(t, Open, outPath)
	if n := count(t, out, "studies"); n != 4 {
		t.Errorf("studies = %d, want 4", n)
	}
	if n := count(t, out, "runs"); n != 12 {
		t.Errorf("runs = %d, want 12", n)
	}
}
