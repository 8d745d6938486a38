package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"
)

// openMergeInput opens a database read-only and checks that it is a boxtax
// database this boxtax can read: intact, with the tables and columns merge
// copies.
func openMergeInput(ctx context.Context, path string) (*sql.DB, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("merge input: %w", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: %w: not a regular file", path, ErrNotBoxtax)
	}
	db, err := openFile(path, true)
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1)
	fail := func(format string, a ...any) (*sql.DB, error) {
		db.Close()
		return nil, fmt.Errorf("%s: %w: %s; nothing was merged from it", path, ErrNotBoxtax, fmt.Sprintf(format, a...))
	}
	if err := checkInputSchema(ctx, db); err != nil {
		return fail("%v", err)
	}
	var check string
	if err := db.QueryRowContext(ctx, `PRAGMA quick_check`).Scan(&check); err != nil {
		return fail("SQLite cannot read it (%v)", err)
	}
	if check != "ok" {
		return fail("SQLite finds it damaged (%s)", check)
	}
	var version int
	if err := db.QueryRowContext(ctx, `PRAGMA user_version`).Scan(&version); err != nil {
		return fail("%v", err)
	}
	if version > schemaVersion {
		db.Close()
		return nil, fmt.Errorf("%s was written by a newer boxtax (schema %d, this one knows %d): upgrade boxtax", path, version, schemaVersion)
	}
	need := map[string][]string{
		"studies": {"id", "name", "spec_yaml", "seed", "host_json", "status", "created_at", "finished_at"},
		"runs":    {"id", "study_id", "seq", "cell_key", "workload", "env", "levels_json", "params_json", "rep", "warmup", "status", "reason", "settings_json", "notes_json", "started_at", "ended_at"},
		"samples": {"run_id", "metric", "value", "unit"},
		"series":  {"run_id", "name", "unit", "chunk", "n", "data"},
	}
	for _, table := range []string{"studies", "runs", "samples", "series"} {
		for _, col := range need[table] {
			ok, err := hasColumn(ctx, db, table, col)
			if err != nil {
				return fail("%v", err)
			}
			if !ok {
				return fail("it has no %s.%s", table, col)
			}
		}
	}
	if version < 1 {
		return fail("its schema version is 0")
	}
	return db, nil
}

// mergedTables are the tables merge reads from an input.
var mergedTables = []string{"studies", "runs", "samples", "series"}

// checkInputSchema refuses an input whose reading could run code of the
// input's making (issue 25 item 9: a studies view over an endless
// recursive query spun until Ctrl-C): each table merge reads must be a
// plain table without computed columns, and the only trigger allowed is
// the one boxtax writes. Merge then only scans rows, so its work is bounded
// by the size of the file.
func checkInputSchema(ctx context.Context, db *sql.DB) error {
	for _, name := range mergedTables {
		var typ, text string
		err := db.QueryRowContext(ctx, `SELECT type, COALESCE(sql, '') FROM sqlite_schema WHERE name = ? COLLATE NOCASE`, name).Scan(&typ, &text)
		if err == sql.ErrNoRows {
			continue // "it has no studies.id" below says so
		}
		if err != nil {
			return err
		}
		if typ != "table" {
			return fmt.Errorf("its %s is a %s, not a table", name, typ)
		}
		if strings.HasPrefix(strings.ToUpper(text), "CREATE VIRTUAL") {
			return fmt.Errorf("its %s is a virtual table", name)
		}
		var computed string
		err = db.QueryRowContext(ctx, `SELECT name FROM pragma_table_xinfo(?) WHERE hidden IN (2, 3) LIMIT 1`, name).Scan(&computed)
		if err == nil {
			return fmt.Errorf("its %s.%s is a computed column", name, computed)
		}
		if err != sql.ErrNoRows {
			return err
		}
	}
	rows, err := db.QueryContext(ctx, `SELECT name, tbl_name, COALESCE(sql, '') FROM sqlite_schema WHERE type = 'trigger'`)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var name, table, text string
		if err := rows.Scan(&name, &table, &text); err != nil {
			return err
		}
		if name != "studies_new_uid" || strings.Join(strings.Fields(text), " ") != strings.Join(strings.Fields(studyUIDTrigger), " ") {
			return fmt.Errorf("it carries a trigger boxtax did not write (%s on %s)", name, table)
		}
	}
	return rows.Err()
}
