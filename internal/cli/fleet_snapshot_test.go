package cli

import (
	"bytes"
	"database/sql"
	"os"
	"path/filepath"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

func TestFleetSnapshot(t *testing.T) {
	dir := t.TempDir()
	storedStudy(t, filepath.Join(dir, "dev.db"), "on the device", epyc, 1)
	foreign := filepath.Join(dir, "foreign.sqlite")
	raw, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE readings (t INTEGER, v REAL); INSERT INTO readings VALUES (1, 2.5)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	testenv.WriteFile(t, filepath.Join(dir, "notes.txt"), []byte("the user's notes, not a database\n"), 0o644)
	kept := map[string][]byte{}
	for _, name := range []string{"foreign.sqlite", "notes.txt", "dev.db"} {
		kept[name], _ = os.ReadFile(filepath.Join(dir, name))
	}
	for _, tt := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"no copy named", []string{"fleet", "snapshot", "--db", "dev.db"}, ExitUsage, "name the database and the one file"},
		{"no database", []string{"fleet", "snapshot", "--db", "none.db", "copy.db"}, 1, "no database at none.db"},
		{"an unknown verb", []string{"fleet", "halt"}, ExitUsage, "fleet's verb is run"},
		// Issue 42 item 5: another program's SQLite file or any other file
		// is not written over, nor the database itself.
		{"over another program's database", []string{"fleet", "snapshot", "--db", "dev.db", "foreign.sqlite"}, ExitUsage, "foreign.sqlite exists and is no boxtax database"},
		{"over a text file", []string{"fleet", "snapshot", "--db", "dev.db", "notes.txt"}, ExitUsage, "name a new file for the copy"},
		{"over the database", []string{"fleet", "snapshot", "--db", "dev.db", "./dev.db"}, ExitUsage, "is the database dev.db"},
		{"a copy", []string{"fleet", "snapshot", "--db", "dev.db", "copy.db"}, ExitOK, ""},
		{"over an earlier copy", []string{"fleet", "snapshot", "--db", "dev.db", "copy.db"}, ExitOK, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runExits(t, dir, tt.code, tt.args, tt.want)
		})
	}
	for name, before := range kept {
		if after, _ := os.ReadFile(filepath.Join(dir, name)); !bytes.Equal(before, after) {
			t.Errorf("%s changed", name)
		}
	}
	r := runOK(t, dir, "list", "studies", "--db", "copy.db")
	stdoutSays(t, r, "on the device")
}
