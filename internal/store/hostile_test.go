package store

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/errtest"
)

// rawExec changes a database as another program could, behind boxtax.
func rawExec(t *testing.T, path string, stmts ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, q := range stmts {
		if _, err := db.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// TestDamagedSeriesIsAnErrorNamingTheRun: issue 25 item 8, a series row
// changed behind boxtax (`update series set data=x'0102', n=-5`) was
// merged as it was, and report then crashed in makeslice. Merge refuses
// the input and leaves the output as it was; readers say which run.
func TestDamagedSeriesIsAnErrorNamingTheRun(t *testing.T) {
	ctx := context.Background()
	for _, c := range []struct{ name, set string }{
		{"negative length", `data = x'0102', n = -5`},
		{"length beyond the data", `n = 1099511627776`},
		{"data not whole values", `data = x'0102030405'`},
		{"length and data disagree", `n = 2`},
		{"text instead of a blob", `data = 'abc', n = 1`},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			in := filepath.Join(dir, "in.db")
			s, runs := newStudyDB(t, in, "pi")
			s.Close()
			rawExec(t, in, `UPDATE series SET `+c.set)
			runID := runs[0].ID
			want := "run " + itoa(runID)

			r := openForTest(t, OpenReadOnly, in)
			if _, err := r.SeriesNames(ctx, runID); err == nil {
				if _, err = r.ReadSeries(ctx, runID, "lat"); err == nil || !strings.Contains(err.Error(), want) || !errors.Is(err, ErrDamaged) {
					t.Errorf("reading the damaged series: %v; want ErrDamaged naming %s", err, want)
				}
			} else if !strings.Contains(err.Error(), want) || !errors.Is(err, ErrDamaged) {
				t.Errorf("listing the damaged series: %v; want ErrDamaged naming %s", err, want)
			}

			out := openForTest(t, Open, filepath.Join(dir, "out.db"))
			if _, err := out.Merge(ctx, in); err == nil || !errors.Is(err, ErrNotBoxtax) || !strings.Contains(err.Error(), "series") {
				t.Errorf("merge of the damaged input: %v; want a refusal naming the series", err)
			}
			if n := count(t, out, "studies") + count(t, out, "runs") + count(t, out, "series"); n != 0 {
				t.Errorf("the output holds %d rows after a refused merge", n)
			}
		})
	}
}

// TestMergeRefusesViewsAndTriggers: issue 25 item 9, a merge input whose
// studies was a view over an endless recursive query spun until Ctrl-C.
// Inputs whose tables are views, virtual tables or computed columns, or
// carry triggers boxtax did not write, are refused at once.
func TestMergeRefusesViewsAndTriggers(t *testing.T) {
	endless := `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS id, 'n' AS name, '' AS spec_yaml, 0 AS seed, '{}' AS host_json, 'finished' AS status, 0 AS created_at, NULL AS finished_at, 'u' || x AS uid FROM c`
	for _, c := range []struct {
		name  string
		stmts []string
		want  string
	}{
		{"studies an endless view", []string{`ALTER TABLE studies RENAME TO s0`, `CREATE VIEW studies AS ` + endless}, "view"},
		{"samples a view", []string{`ALTER TABLE samples RENAME TO s0`, `CREATE VIEW samples AS SELECT * FROM s0`}, "view"},
		{"a trigger on runs", []string{`CREATE TRIGGER evil AFTER INSERT ON runs BEGIN DELETE FROM runs; END`}, "trigger"},
		{"studies' trigger rewritten", []string{`DROP TRIGGER studies_new_uid`,
			`CREATE TRIGGER studies_new_uid AFTER INSERT ON studies BEGIN DELETE FROM runs; END`}, "trigger"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			dir := t.TempDir()
			in := filepath.Join(dir, "in.db")
			s, _ := newStudyDB(t, in, "pi")
			s.Close()
			rawExec(t, in, c.stmts...)
			out := openForTest(t, Open, filepath.Join(dir, "out.db"))
			start := time.Now()
			_, err := out.Merge(ctx, in)
			if err == nil || !errors.Is(err, ErrNotBoxtax) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("merge: %v; want a refusal naming the %s", err, c.want)
			}
			if took := time.Since(start); took > 30*time.Second { // a hang, not speed: a busy machine
				t.Errorf("the refusal took %v", took)
			}
			if n := count(t, out, "studies"); n != 0 {
				t.Errorf("the output holds %d studies after a refused merge", n)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// TestDBUnderAFile: issue 42, 15: --db q0.yaml/x.db, where q0.yaml is a
// regular file, was refused as "permission denied ... the directory
// q0.yaml (mode 0644)"; it is said to be a file, not a directory, by the
// writer and the reader alike.
func TestDBUnderAFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "q0.yaml")
	if err := os.WriteFile(file, []byte("name: q\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(file, "x.db")
	for name, open := range map[string]func(context.Context, string) (*Store, error){"Open": Open, "OpenReadOnly": OpenReadOnly} {
		s, err := open(context.Background(), path)
		if err == nil {
			s.Close()
		}
		errtest.Want(t, err, file+" is a file, not a directory")
		if strings.Contains(err.Error(), "permission") {
			t.Errorf("%s: %v", name, err)
		}
	}
}
