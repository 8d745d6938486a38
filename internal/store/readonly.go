package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// OpenReadOnly opens an existing database for reading only, as report,
// analyze, compare, serve and list do: it writes nothing (no tables made,
// no schema version set, no lock taken), so it works on a file the user
// may only read, on read-only media, and beside a `boxtax run` writing the
// same file, which it never waits for (SQLite's WAL: readers see the last
// committed runs). A database written by an older boxtax is upgraded first
// when the file can be written, as Open does; when it cannot, the error
// says what to do.
func OpenReadOnly(ctx context.Context, path string) (*Store, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	if fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a database file", path)
	}
	if err := CheckOutput(ctx, path); err != nil && !readOnlyFailure(err) {
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
		s, version, err = openRO(ctx, path, uri, true)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case version == schemaVersion:
		return s, nil
	case version > schemaVersion:
		s.Close()
		return nil, fmt.Errorf("%s was written by a newer boxtax (schema %d, this one knows %d): upgrade boxtax", path, version, schemaVersion)
	}
	s.Close()
	// Written by an older boxtax (or an empty file): upgrade it once if we
	// may write it.
	if f, err := os.OpenFile(path, os.O_RDWR, 0); err == nil {
		f.Close()
		w, err := Open(ctx, path)
		if err != nil {
			return nil, err
		}
		w.Close()
		return OpenReadOnly(ctx, path)
	} else if errors.Is(err, fs.ErrPermission) {
		return nil, fmt.Errorf("%s was written by an older boxtax (schema %d, this one reads %d) and this user cannot write it to upgrade it: "+
			"run any boxtax command on it once as its owner (e.g. boxtax report --db %s), or copy it somewhere writable", path, version, schemaVersion, path)
	} else {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
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
