package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
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
	// Waiting would take the whole 10 s busy timeout; a busy machine's
	// slowness stays well below it.
	if took := time.Since(start); took > 9*time.Second {
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
	w := openForTest(t, Open, path)
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

// TestReadOnlyWritesNothingIntoAnEmptyFile: issue 25 item 6, a 0-byte
// file opened by a reader got boxtax's schema written into it. It is
// refused as empty, and stays 0 bytes, with no -wal or -shm beside it.
func TestReadOnlyWritesNothingIntoAnEmptyFile(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	for _, c := range []struct {
		name string
		make func(path string)
	}{
		{"0 bytes", func(path string) {
			if err := os.WriteFile(path, nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
		{"an SQLite file without tables", func(path string) {
			db, err := sql.Open("sqlite", "file:"+path)
			if err == nil {
				_, err = db.Exec("PRAGMA user_version = 0; VACUUM")
				db.Close()
			}
			if err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "-")+".db")
			c.make(path)
			before, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			s, err := OpenReadOnly(ctx, path)
			if err == nil {
				s.Close()
			}
			if !errors.Is(err, ErrEmpty) || !strings.Contains(err.Error(), "boxtax run --db "+path) {
				t.Errorf("OpenReadOnly: %v; want ErrEmpty saying to run a study into it", err)
			}
			if after, _ := os.ReadFile(path); !bytes.Equal(after, before) {
				t.Errorf("the reader changed the file: %d bytes before, %d after", len(before), len(after))
			}
			for _, suffix := range []string{"-wal", "-shm", "-journal"} {
				if _, err := os.Stat(path + suffix); err == nil {
					t.Errorf("the reader left %s", path+suffix)
				}
			}
		})
	}
}

// TestReadOnlyRemovesOnlyWhatItMade: the -wal and -shm files a reader made
// are gone when it closes (issue 25 item 4), but not while a writer uses
// them, and never those that were there before it.
func TestReadOnlyRemovesOnlyWhatItMade(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "t.db")
	w := openForTest(t, Open, path)
	if err := w.CreateStudy(ctx, &Study{Name: "s", SpecYAML: "name: s\n", HostJSON: "{}"}, nil); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exist := func() walFiles { return walFilesOf(path) }
	if got := exist(); got.wal || got.shm {
		t.Fatalf("the writer's close left %+v", got)
	}
	r, err := OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if got := exist(); !got.wal || !got.shm {
		t.Fatalf("SQLite made no -wal and -shm to read (%+v): this test no longer tests anything", got)
	}
	r.Close()
	if got := exist(); got.wal || got.shm {
		t.Errorf("a reader's close left %+v", got)
	}
	// Through a symlink: SQLite keeps the files beside the file it names.
	link := filepath.Join(t.TempDir(), "link.db")
	if err := os.Symlink(path, link); err != nil {
		t.Fatal(err)
	}
	r = openForTest(t, OpenReadOnly, link)
	if _, err := r.Studies(ctx); err != nil {
		t.Fatal(err)
	}
	r.Close()
	if got := exist(); got.wal || got.shm {
		t.Errorf("a reader's close through a symlink left %+v", got)
	}
	// Beside a writer: the files are the writer's to remove.
	w = openForTest(t, Open, path)
	r, err = OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r.Close()
	if got := exist(); !got.wal || !got.shm {
		t.Errorf("a reader removed a writer's files: %+v left", got)
	}
	if err := w.CreateStudy(ctx, &Study{Name: "after", SpecYAML: "name: after\n", HostJSON: "{}"}, nil); err != nil {
		t.Errorf("the writer after a reader closed: %v", err)
	}
}
