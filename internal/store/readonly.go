package store

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"strings"

	"golang.org/x/sys/unix"
)

// OpenReadOnly opens an existing database for reading only, as report,
// analyze, compare, serve and list do: it writes nothing (no tables made,
// no schema version set, no lock taken, and the -wal and -shm files SQLite
// makes to read a WAL database removed on Close when it made them and
// nobody else uses them), so it works on a file the user may only read, on
// read-only media, and beside a `boxtax run` writing the same file, which
// it never waits for (SQLite's WAL: readers see the last committed runs).
// An empty file (0 bytes, or no tables) is refused with ErrEmpty, as it
// is. A database written by an older boxtax is upgraded first when the
// file can be written, as Open does; when it cannot, the error says what
// to do. A permission problem says so, and on what (checkAccess).
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	if err := checkAccess(path, unix.R_OK); err != nil {
		return nil, err
	}
	if err := checkOneName(path); err != nil {
		return nil, err
	}
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a database file", path)
	}
	if fi.Size() == 0 {
		return nil, emptyErr(path)
	}
	before := walFilesOf(path)
	if err := CheckOutput(ctx, path); err != nil && !readOnlyFailure(err) {
		removeMadeWALFiles(path, before)
		return nil, err
	}
	uri, err := fileURI(path)
	if err != nil {
		return nil, err
	}
	s, version, err := openRO(ctx, path, uri, false)
	if err != nil && readOnlyFailure(err) {
		// A WAL database in a directory the user cannot write: SQLite
		// cannot make the shared-memory file readers use. Nobody can be
		// writing it then, so read it as immutable.
		removeMadeWALFiles(path, before)
		s, version, err = openRO(ctx, path, uri, true)
	}
	if err != nil {
		removeMadeWALFiles(path, before)
		return nil, err
	}
	s.onClose = func() { removeMadeWALFiles(path, before) }
	switch {
	case version == schemaVersion:
		return s, nil
	case version > schemaVersion:
		s.Close()
		return nil, fmt.Errorf("%s was written by a newer boxtax (schema %d, this one knows %d): upgrade boxtax", path, version, schemaVersion)
	}
	if version == 0 {
		has, err := hasTable(ctx, s.db, "studies")
		if err == nil && !has {
			s.Close()
			return nil, emptyErr(path)
		}
	}
	s.Close()
	// Written by an older boxtax: upgrade it once if we may write it.
	if unix.Access(path, unix.W_OK) == nil {
		w, err := Open(ctx, path)
		if err != nil {
			return nil, err
		}
		w.Close()
		return OpenReadOnly(ctx, path)
	}
	return nil, fmt.Errorf("%s was written by an older boxtax (schema %d, this one reads %d) and this user cannot write it to upgrade it: "+
		"run any boxtax command on it once as its owner (e.g. boxtax report --db %s), or copy it somewhere writable", path, version, schemaVersion, path)
}

// emptyErr is the error of a database file that holds no studies.
func emptyErr(path string) error {
	return fmt.Errorf("%s: %w: run a study into it first (boxtax run --db %s)", path, ErrEmpty, path)
}

// hasTable tells whether the database has a table of that name.
func hasTable(ctx context.Context, db *sql.DB, name string) (bool, error) {
	var n int
	err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return n > 0, err
}

// openRO opens the database with SQLite's read-only mode and reads its
// schema version.
func openRO(ctx context.Context, path, uri string, immutable bool) (*Store, int, error) {
	dsn := uri + "?mode=ro&_pragma=busy_timeout(10000)&_pragma=foreign_keys(1)"
	if immutable {
		dsn = uri + "?mode=ro&immutable=1&_pragma=foreign_keys(1)"
	}
	db, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, 0, fmt.Errorf("opening %s: %w", path, err)
	}
	var version int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version); err != nil {
		db.Close()
		return nil, 0, fmt.Errorf("opening %s read-only: %w", path, err)
	}
	// A query of a table makes SQLite open the WAL index, where a
	// read-only directory fails.
	if version > 0 {
		var n int
		if err := db.QueryRowContext(ctx, "SELECT COUNT(*) FROM studies").Scan(&n); err != nil {
			db.Close()
			return nil, 0, fmt.Errorf("opening %s read-only: %w", path, err)
		}
	}
	return &Store{db: db, path: path}, version, nil
}

// readOnlyFailure tells SQLite's refusals to read a WAL database without
// write access to its directory or shared-memory file.
func readOnlyFailure(err error) bool {
	msg := err.Error()
	return strings.Contains(msg, "readonly") || strings.Contains(msg, "read-only") ||
		strings.Contains(msg, "unable to open") || strings.Contains(msg, "SQLITE_CANTOPEN") || strings.Contains(msg, "(8)") || strings.Contains(msg, "(14)")
}
