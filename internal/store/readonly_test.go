package store

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A reader opens the database read-only while a writer is inside a
// transaction (a run being stored) and neither waits for it nor sees the
// uncommitted rows; it writes nothing, so the schema version and tables
// stay as they are.
func TestReadOnlyNeverWaitsForAWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	w := openForTest(t, Open, path)
	st := &Study{Name: "committed", SpecYAML: "name: committed\n", HostJSON: "{}"}
	if err := w.CreateStudy(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	tx, err := w.db.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `INSERT INTO studies (name, spec_yaml, seed, host_json, status, created_at) VALUES ('uncommitted','',0,'{}','running',0)`); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	r := openForTest(t, OpenReadOnly, path)
	studies, err := r.Studies(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("the reader took %v beside a writer's open transaction: it waited (busy timeout 10 s)", took)
	}
	if len(studies) != 1 || studies[0].Name != "committed" {
		t.Errorf("studies %+v, want only the committed one", studies)
	}
	if _, err := r.db.ExecContext(ctx, `DELETE FROM studies`); err == nil || !strings.Contains(err.Error(), "readonly") {
		t.Errorf("a write through the read-only store: %v, want SQLite's read-only refusal", err)
	}
}

// An older database opened read-only is upgraded first when the file can be
// written (root here), as Open does.
func TestReadOnlyUpgradesAnOlderDatabaseItMayWrite(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	w, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.db.ExecContext(ctx, "PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	w.Close()
	r := openForTest(t, OpenReadOnly, path)
	var v int
	if err := r.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil || v != schemaVersion {
		t.Errorf("user_version %d, %v; want %d", v, err, schemaVersion)
	}
}
