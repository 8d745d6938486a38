package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenLeavesForeignFilesAlone: issue 15 items 5 and 15, opening any
// database wrote boxtax's tables into it, and a foreign file was said to be
// "written by a newer boxtax".
func TestOpenLeavesForeignFilesAlone(t *testing.T) {
	dir := t.TempDir()
	ctx := context.Background()

	foreign := filepath.Join(dir, "app.db")
	db, err := sql.Open("sqlite", "file:"+foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("CREATE TABLE readings (t INTEGER, v REAL); PRAGMA user_version = 42"); err != nil {
		t.Fatal(err)
	}
	db.Close()
	before, _ := os.ReadFile(foreign)
	_, err = Open(ctx, foreign)
	if !errors.Is(err, ErrNotBoxtax) || strings.Contains(err.Error(), "newer boxtax") {
		t.Fatalf("Open(foreign) = %v, want not a boxtax database", err)
	}
	if after, _ := os.ReadFile(foreign); string(after) != string(before) {
		t.Error("the foreign database was changed")
	}

	text := filepath.Join(dir, "notes.db")
	os.WriteFile(text, []byte("just some text, not SQLite\n"), 0o644)
	if _, err := Open(ctx, text); !errors.Is(err, ErrNotBoxtax) {
		t.Fatalf("Open(text file) = %v, want not a boxtax database", err)
	}

	if os.Geteuid() != 0 { // root may write anything
		ro := filepath.Join(dir, "ro.db")
		s := openForTest(t, Open, ro)
		s.Close()
		os.Chmod(ro, 0o444)
		if _, err := Open(ctx, ro); err == nil || !strings.Contains(err.Error(), "permission denied") {
			t.Fatalf("Open(read-only file) = %v, want permission denied", err)
		}
	}
}
