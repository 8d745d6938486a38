package store

import (
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// uriEscaper escapes the characters that end or change the path of an
// SQLite URI filename: '?' starts the query, '#' the fragment, and '%'
// starts an escape that SQLite decodes.
var uriEscaper = strings.NewReplacer("%", "%25", "?", "%3F", "#", "%23")

// fileURI is the SQLite URI filename ("file:/abs/path") of a database path,
// so that any file name the user gives (results?v2.db, run#1.db, a%41b.db)
// names exactly that file. An empty path is an error: SQLite would open a
// temporary database and lose everything stored in it.
func fileURI(path string) (string, error) {
	if path == "" {
		return "", errors.New("no database file given: --db needs a path, e.g. --db boxtax.db")
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("database %q: %w", path, err)
	}
	return "file:" + uriEscaper.Replace(filepath.ToSlash(abs)), nil
}

// openFile opens the SQLite file at path (fileURI) with a busy timeout of
// 10 s, read-only when readOnly, for a one-off look or copy beside the
// Store (merge inputs, the merge output's check, snapshots).
func openFile(path string, readOnly bool) (*sql.DB, error) {
	uri, err := fileURI(path)
	if err != nil {
		return nil, err
	}
	query := "?_pragma=busy_timeout(10000)"
	if readOnly {
		query = "?mode=ro&_pragma=busy_timeout(10000)"
	}
	db, err := sql.Open("sqlite", uri+query)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	return db, nil
}
