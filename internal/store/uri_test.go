package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestOpenCreatesExactlyTheNamedFile: issue 15 item 6, a --db path was
// pasted into the SQLite URI unescaped, so ?, # and % wrote to other files.
func TestOpenCreatesExactlyTheNamedFile(t *testing.T) {
	for _, name := range []string{"results?v2.db", "run#1.db", "a%41b.db", "plain.db", "with space.db"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, name)
			s, err := Open(context.Background(), path)
			if err != nil {
				t.Fatal(err)
			}
			s.Close()
			entries, _ := os.ReadDir(dir)
			var names []string
			for _, e := range entries {
				names = append(names, e.Name())
			}
			if _, err := os.Stat(path); err != nil {
				t.Fatalf("%s was not created; the directory holds %v", name, names)
			}
			for _, n := range names {
				if n != name && n != name+"-wal" && n != name+"-shm" {
					t.Errorf("a file of another name was written: %q (all: %v)", n, names)
				}
			}
		})
	}
}

func TestOpenRefusesAnEmptyPath(t *testing.T) {
	if _, err := Open(context.Background(), ""); err == nil {
		t.Fatal("an empty --db opened a temporary database")
	}
}
