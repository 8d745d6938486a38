package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// openForTest opens the store file at path with open (Open or
// OpenReadOnly) and closes it when the test ends; the test stops if the
// file cannot be opened.
func openForTest(tb testing.TB, open func(context.Context, string) (*Store, error), path string) *Store {
	tb.Helper()
	s, err := open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { s.Close() })
	return s
}

func TestStudyRunsAndSamplesRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	s := openForTest(t, Open, path)
	st := &Study{Name: "t", SpecYAML: "name: t\n", Seed: 7, HostJSON: `{"cpus":2}`}
	runs := []Run{
		{Seq: 0, CellKey: "w|env=native", Workload: "w", Env: "native", Levels: map[string]string{"env": "native"}, Params: map[string]any{"n": 1.0}, Warmup: true},
		{Seq: 1, CellKey: "w|env=native", Workload: "w", Env: "native", Levels: map[string]string{"env": "native"}, Params: map[string]any{"n": 1.0}},
		{Seq: 2, CellKey: "w|env=docker-host", Workload: "w", Env: "docker-host", Levels: map[string]string{"env": "docker-host"}, Params: map[string]any{"n": 1.0}},
	}
	if err := s.CreateStudy(ctx, st, runs); err != nil {
		t.Fatal(err)
	}
	r := runs[1]
	r.Status, r.Settings, r.Notes = RunOK, map[string]string{"pid": "1"}, map[string]string{"k": "v"}
	if err := s.FinishRun(ctx, &r, []Sample{{RunID: r.ID, Metric: "rate", Value: 1.5, Unit: "1/s"}}, nil); err != nil {
		t.Fatal(err)
	}
	// Finishing again (a resumed run) replaces the samples.
	if err := s.FinishRun(ctx, &r, []Sample{{RunID: r.ID, Metric: "rate", Value: 2.5, Unit: "1/s"}}, nil); err != nil {
		t.Fatal(err)
	}
	s.Close()

	// Reopen: everything committed is there.
	s = openForTest(t, Open, path)
	latest, err := s.LatestStudy(ctx, true)
	if err != nil || latest.ID != st.ID || latest.Status != StudyRunning || latest.Seed != 7 {
		t.Fatalf("latest unfinished: %+v %v", latest, err)
	}
	got, err := s.Runs(ctx, st.ID)
	if err != nil || len(got) != 3 {
		t.Fatalf("runs: %v %v", got, err)
	}
	if !got[0].Warmup || got[1].Status != RunOK || got[2].Status != RunPending || got[1].Notes["k"] != "v" || got[1].Params["n"] != 1.0 {
		t.Errorf("runs read back wrong: %+v", got)
	}
	smp, err := s.Samples(ctx, st.ID)
	if err != nil || len(smp) != 1 || smp[0].Value != 2.5 {
		t.Fatalf("samples: %+v %v", smp, err)
	}
	if err := s.SetStudyStatus(ctx, st.ID, StudyFinished); err != nil {
		t.Fatal(err)
	}
	if _, err := s.LatestStudy(ctx, true); err == nil {
		t.Error("a finished study is still offered for resuming")
	}
	if _, err := s.Study(ctx, 99); err == nil {
		t.Error("study 99 exists?")
	}
}

func TestOpenRejectsAFileThatIsNotADatabase(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.db")
	if err := os.WriteFile(path, []byte("this is not sqlite, just text that is long enough to fill a header ......"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(context.Background(), path); err == nil {
		t.Fatal("opened a text file as a database")
	}
}

func TestSeriesRoundTripAcrossChunks(t *testing.T) {
	ctx := context.Background()
	s := openForTest(t, Open, filepath.Join(t.TempDir(), "s.db"))
	st := &Study{Name: "s", SpecYAML: "name: s\n"}
	runs := []Run{{CellKey: "w", Workload: "w", Env: "native", Levels: map[string]string{}, Params: map[string]any{}}}
	if err := s.CreateStudy(ctx, st, runs); err != nil {
		t.Fatal(err)
	}
	long := make([]float64, 2*seriesChunk+123)
	for i := range long {
		long[i] = float64(i) * 0.5
	}
	r := runs[0]
	r.Status = RunOK
	series := []Series{{Name: "latency_ns", Unit: "ns", Values: long}, {Name: "empty", Unit: "ns"}}
	if err := s.FinishRun(ctx, &r, nil, series); err != nil {
		t.Fatal(err)
	}
	got, err := s.ReadSeries(ctx, r.ID, "latency_ns")
	if err != nil || got.Unit != "ns" || len(got.Values) != len(long) || got.Values[len(long)-1] != long[len(long)-1] || got.Values[seriesChunk] != long[seriesChunk] {
		t.Fatalf("read back %d values, unit %q, err %v", len(got.Values), got.Unit, err)
	}
	names, err := s.SeriesNames(ctx, r.ID)
	if err != nil || len(names) != 2 || names[1].Name != "latency_ns" || cap(names[1].Values) != len(long) {
		t.Fatalf("names %+v %v", names, err)
	}
	if _, err := s.ReadSeries(ctx, r.ID, "nope"); err == nil {
		t.Error("a missing series was found")
	}
}

func TestOpenUpgradesADatabaseWithoutInstanceColumns(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	s := openForTest(t, Open, path)
	// Make it look like a database from before instances existed.
	for _, q := range []string{
		`DROP TABLE samples`, `CREATE TABLE samples (run_id INTEGER NOT NULL, metric TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL)`,
		`INSERT INTO studies (name, spec_yaml, seed, host_json, status, created_at) VALUES ('old', '', 1, '{}', 'finished', 0)`,
		`INSERT INTO runs (study_id, seq, cell_key, workload, env, levels_json, params_json, rep, warmup, status) VALUES (1, 0, 'w', 'w', 'native', '{}', '{}', 0, 0, 'ok')`,
		`INSERT INTO samples VALUES (1, 'rate', 2.5, '1/s')`,
	} {
		if _, err := s.db.ExecContext(ctx, q); err != nil {
			t.Fatal(q, err)
		}
	}
	s.Close()
	s = openForTest(t, Open, path)
	smp, err := s.Samples(ctx, 1)
	if err != nil || len(smp) != 1 || smp[0].Value != 2.5 || smp[0].Instance != 0 {
		t.Fatalf("samples of an upgraded database: %+v %v", smp, err)
	}
}
