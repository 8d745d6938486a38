package cli

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
	_ "modernc.org/sqlite"
)

// TestReadersNeedOnlyRead: report, analyze and list read a database that
// the user may only read, in a directory the user cannot write (issue 15
// item 5), as a real unprivileged process; an older database there is
// refused with what to do instead of a failed upgrade.
func TestReadersNeedOnlyRead(t *testing.T) {
	testenv.RequireRoot(t, "running a reader as another user")
	testenv.RequireTool(t, "setpriv", "util-linux")
	work := t.TempDir()
	runOK(t, work, "run", testdata(t, "tiny.yaml"), "--envs", "native", "--workloads", "cpu.prime", "--warmup", "0",
		"--settle", "0", "--monitor-interval", "0", "--quiet", "--db", filepath.Join(work, "r.db"))
	// A directory and files owned by root, readable by all, writable by
	// root only (the -wal and -shm files are gone after the writer closed).
	dir := testenv.SharedDir(t, 0o755)
	b, err := os.ReadFile(filepath.Join(work, "r.db"))
	if err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "r.db")
	testenv.WriteFile(t, db, b, 0o644)
	asNobody := func(args ...string) (string, error) {
		out, err := asUID(t, nobodyUID, dir, boxtaxBin, args...).CombinedOutput()
		return string(out), err
	}
	for _, args := range [][]string{
		{"report", "--db", db},
		{"report", "--db", db, "--format", "json"},
		{"list", "studies", "--db", db},
	} {
		out, err := asNobody(args...)
		if err != nil || !strings.Contains(out, "cpu.prime") && !strings.Contains(out, "tiny") {
			t.Errorf("boxtax %s as an unprivileged user: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
	// analyze reads the runs, and finds one environment: nothing to compare.
	if out, _ := asNobody("analyze", "--db", db); !strings.Contains(out, "cpu.prime: no factor has two or more levels") {
		t.Errorf("analyze as an unprivileged user did not read the runs:\n%s", out)
	}
	after, _ := os.ReadFile(db)
	if string(after) != string(b) {
		t.Errorf("the readers changed the database file")
	}
	// The same database as an older boxtax left it.
	sq, err := sql.Open("sqlite", "file:"+db)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sq.ExecContext(context.Background(), "PRAGMA user_version = 1"); err != nil {
		t.Fatal(err)
	}
	sq.Close()
	out, err := asNobody("report", "--db", db)
	if err == nil || !strings.Contains(out, "written by an older boxtax") || !strings.Contains(out, "as its owner") {
		t.Errorf("an older database the user cannot upgrade: %v\n%s", err, out)
	}
}
