package store

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestLockStudyRefusesASecondRunner: issue 15 item 4, `run --resume` while
// the first run was still going made both execute the same pending runs.
func TestLockStudyRefusesASecondRunner(t *testing.T) {
	db := filepath.Join(t.TempDir(), "boxtax.db")
	openForTest(t, Open, db)
	release, err := LockStudy(db, 3)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := LockStudy(db, 3); !errors.Is(err, ErrStudyBusy) {
		t.Fatalf("a second lock of study 3: %v, want ErrStudyBusy", err)
	}
	other, err := LockStudy(db, 4)
	if err != nil {
		t.Fatalf("study 4 of the same database: %v", err)
	}
	other()
	release()
	again, err := LockStudy(db, 3)
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	again()
}

// TestLockStudyHoldsForEveryPathToTheFile: issue 25 item 1, a second
// `run --resume` through a symlink to the database (or a hard link) took
// a lock of its own, named after the path it was given, and did the same
// pending runs twice.
func TestLockStudyHoldsForEveryPathToTheFile(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "r.db")
	openForTest(t, Open, db)
	sub := filepath.Join(dir, "elsewhere")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	paths := map[string]string{
		"symlink":                filepath.Join(dir, "a.db"),
		"relative symlink":       filepath.Join(sub, "b.db"),
		"hard link":              filepath.Join(sub, "c.db"),
		"symlink to a hard link": filepath.Join(dir, "d.db"),
	}
	for _, err := range []error{
		os.Symlink(db, paths["symlink"]),
		os.Symlink("../r.db", paths["relative symlink"]),
		os.Link(db, paths["hard link"]),
		os.Symlink(paths["hard link"], paths["symlink to a hard link"]),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	release, err := LockStudy(db, 7)
	if err != nil {
		t.Fatal(err)
	}
	for name, p := range paths {
		t.Run(name, func(t *testing.T) {
			if rel, err := LockStudy(p, 7); !errors.Is(err, ErrStudyBusy) {
				if err == nil {
					rel()
				}
				t.Errorf("study 7 through %s: %v, want ErrStudyBusy", p, err)
			}
		})
	}
	release()
	for name, p := range paths {
		rel, err := LockStudy(p, 7)
		if err != nil {
			t.Fatalf("after release, through the %s: %v", name, err)
		}
		rel()
	}
}
