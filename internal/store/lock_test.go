package store

import (
	"errors"
	"path/filepath"
	"testing"
)

// TestLockStudyRefusesASecondRunner: issue 15 item 4, `run --resume` while
// the first run was still going made both execute the same pending runs.
func TestLockStudyRefusesASecondRunner(t *testing.T) {
	db := filepath.Join(t.TempDir(), "boxtax.db")
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
