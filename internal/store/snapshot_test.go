package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSnapshotHoldsWhatOnlyTheLogHeld is issue 25 item 2 at the store: a
// database left as a killed boxtax leaves it (its runs in the write-ahead
// log, never checkpointed) is copied whole into one file, which holds every
// committed run without the log beside it.
func TestSnapshotHoldsWhatOnlyTheLogHeld(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	live := filepath.Join(dir, "live.db")
	s := openForTest(t, Open, live)
	defer s.Close()
	st := &Study{Name: "killed", SpecYAML: "name: killed\n", Seed: 1, HostJSON: `{}`}
	runs := []Run{
		{Seq: 0, CellKey: "w|env=native", Workload: "w", Env: "native", Levels: map[string]string{"env": "native"}},
		{Seq: 1, CellKey: "w|env=native", Workload: "w", Env: "native", Levels: map[string]string{"env": "native"}},
	}
	if err := s.CreateStudy(ctx, st, runs); err != nil {
		t.Fatal(err)
	}
	r := runs[0]
	r.Status = RunOK
	if err := s.FinishRun(ctx, &r, []Sample{{RunID: r.ID, Metric: "rate", Value: 1.5, Unit: "1/s"}}, nil); err != nil {
		t.Fatal(err)
	}
	// The files as a kill -9 leaves them: the database and its log, copied
	// while the store is still open (so nothing was checkpointed).
	crashed := filepath.Join(dir, "crashed")
	if err := os.Mkdir(crashed, 0o755); err != nil {
		t.Fatal(err)
	}
	dbPath := filepath.Join(crashed, "dev.db")
	for _, suffix := range []string{"", "-wal"} {
		copyFile(t, live+suffix, dbPath+suffix)
	}
	out := filepath.Join(dir, "fetched.db")
	if err := Snapshot(ctx, dbPath, out); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(out + "-wal"); err == nil {
		t.Errorf("the copy has a write-ahead log beside it: it should be one file")
	}
	// Only the copy's file, as a fetch would carry it.
	alone := filepath.Join(t.TempDir(), "alone.db")
	copyFile(t, out, alone)
	c := openForTest(t, OpenReadOnly, alone)
	got, err := c.Runs(ctx, st.ID)
	if err != nil || len(got) != 2 || got[0].Status != RunOK || got[1].Status != RunPending {
		t.Fatalf("runs in the copy: %+v, %v", got, err)
	}
	if err := Snapshot(ctx, filepath.Join(dir, "none.db"), out); err == nil {
		t.Errorf("a missing database: want an error")
	}
	other := filepath.Join(dir, "other.db")
	if err := os.WriteFile(other, []byte("not a database, just text that is long enough to look like one\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := Snapshot(ctx, other, out); err == nil || !errors.Is(err, ErrNotBoxtax) {
		t.Errorf("a text file: %v, want ErrNotBoxtax", err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err == nil {
		err = os.WriteFile(to, b, 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}
