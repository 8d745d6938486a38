package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestOutputNeverOverwritesADatabase is issue 15 item 1: -o naming the
// database (directly, through a symlink or a hard link) or any other SQLite
// database is refused, and the database stays intact.
func TestOutputNeverOverwritesADatabase(t *testing.T) {
	dir := studyDir(t, "kept")
	db := filepath.Join(dir, "boxtax.db")
	other := filepath.Join(dir, "other.db")
	storedStudy(t, other, "also kept", epyc, 1)
	if err := os.Symlink(db, filepath.Join(dir, "link.csv")); err != nil {
		t.Fatal(err)
	}
	if err := os.Link(db, filepath.Join(dir, "hard.csv")); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		args []string
	}{
		{"report same file", []string{"report", "--format", "csv", "-o", "boxtax.db"}},
		{"report same file by another name", []string{"report", "--format", "csv", "-o", "./sub/../boxtax.db"}},
		{"report symlink", []string{"report", "--format", "csv", "-o", "link.csv"}},
		{"report hard link", []string{"report", "--format", "csv", "-o", "hard.csv"}},
		{"report other database", []string{"report", "--format", "csv", "-o", "other.db"}},
		{"compare", []string{"compare", "boxtax.db", "other.db", "-o", "boxtax.db"}},
		{"analyze", []string{"analyze", "--unit", "run", "--workload", "cpu.prime", "-o", "boxtax.db"}},
	}
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := runIn(t, dir, tt.args...)
			if r.code != ExitUsage || !strings.Contains(r.stderr, "refusing to write over it") {
				t.Errorf("exit %d, stderr %q; want %d and a refusal", r.code, r.stderr, ExitUsage)
			}
			for _, p := range []string{db, other} {
				s, err := store.Open(context.Background(), p)
				if err != nil {
					t.Fatalf("%s after %v: %v", p, tt.args, err)
				}
				if _, err := s.Studies(context.Background()); err != nil {
					t.Errorf("%s after %v: %v", p, tt.args, err)
				}
				s.Close()
			}
		})
	}
	t.Run("a plain file is written", func(t *testing.T) {
		r := runIn(t, dir, "report", "--format", "csv", "-o", "out.csv")
		b, err := os.ReadFile(filepath.Join(dir, "out.csv"))
		if r.code != ExitOK || err != nil || !strings.Contains(string(b), "events_per_s") {
			t.Errorf("exit %d (%s), file %q, %v", r.code, r.stderr, b, err)
		}
	})
}

// TestOutputFailureKeepsTheOldFile: a write that fails leaves the file at
// the path as it was, and no temporary file behind.
func TestOutputFailureKeepsTheOldFile(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.csv")
	testenv.WriteFile(t, path, []byte("old\n"), 0o640)
	err := writeOutput(&Globals{Stdout: io.Discard}, path, nil, func(w io.Writer) error {
		io.WriteString(w, "half a repo")
		return errors.New("disk full")
	})
	if err == nil {
		t.Fatal("want the write's error")
	}
	if b, _ := os.ReadFile(path); string(b) != "old\n" {
		t.Errorf("file is %q after a failed write, want the old content", b)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("left behind: %v", entries)
	}
	if err := writeOutput(&Globals{Stdout: io.Discard}, path, nil, func(w io.Writer) error { _, err := io.WriteString(w, "new\n"); return err }); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if b, _ := os.ReadFile(path); string(b) != "new\n" || fi.Mode().Perm() != 0o640 {
		t.Errorf("file is %q mode %v, want the new content and the old mode", b, fi.Mode().Perm())
	}
}
