package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// Snapshot writes a copy of the database at path to dest that holds every
// committed transaction in one file: also those still only in the
// write-ahead log beside it, which a boxtax killed outright (kill -9, the
// OOM killer) never checkpointed into the file, so that copying the file
// alone would lose them. The copy is one read transaction (SQLite's VACUUM
// INTO), consistent even while a study writes the database, and the
// database itself is not changed. dest is written under a temporary name
// and renamed, so it is whole or absent; an existing dest is replaced.
func Snapshot(ctx context.Context, path, dest string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no database at %s: nothing to copy", path)
	}
	if err := checkExisting(ctx, path); err != nil {
		return err
	}
	// Read-write, not mode=ro: after a crash the WAL index must be rebuilt
	// from the log, which a read-only connection may not do.
	db, err := openFile(path, false)
	if err != nil {
		return err
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table' AND name = 'studies'`).Scan(&tables); err != nil {
		return fmt.Errorf("reading %s: %w", path, err)
	}
	if tables == 0 {
		return fmt.Errorf("%s: %w: it holds no studies table", path, ErrNotBoxtax)
	}
	tmp := dest + ".tmp"
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("removing a stale %s: %w", tmp, err)
	}
	if _, err := db.ExecContext(ctx, "VACUUM INTO ?", tmp); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("copying %s to %s: %w", path, dest, err)
	}
	if err := os.Rename(tmp, dest); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("copying %s to %s: %w", path, dest, err)
	}
	return nil
}
