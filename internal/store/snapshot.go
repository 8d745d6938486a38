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
// and renamed, so it is whole or absent. An existing dest is replaced only
// when it is a boxtax database (an earlier copy): another program's file, an
// SQLite database of its own included, is refused with ErrDestination, and
// so is dest when it is the database itself or a file beside it.
func Snapshot(ctx context.Context, path, dest string) error {
	if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("no database at %s: nothing to copy", path)
	}
	if err := checkExisting(ctx, path); err != nil {
		return err
	}
	if err := checkDestination(ctx, path, dest); err != nil {
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

// ErrDestination marks a copy's destination that Snapshot refuses to write
// over: another program's file, or the database being copied.
var ErrDestination = errors.New("refusing to write the copy there")

// checkDestination refuses dest when it is the database at path (db is
// its stat) or one of SQLite's files beside it, or an existing file that
// is not a boxtax database (issue 42 item 5), which the copy would replace.
func checkDestination(ctx context.Context, path, dest string) error {
	di, err := os.Stat(dest)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("%s: %w", dest, err)
	}
	for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
		if si, err := os.Stat(path + suffix); err == nil && os.SameFile(si, di) {
			return fmt.Errorf("%s is the database %s%s: %w; name another file for the copy", dest, path, suffix, ErrDestination)
		}
	}
	if !di.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file: %w; name a new file for the copy", dest, ErrDestination)
	}
	if err := checkExisting(ctx, dest); err != nil {
		return fmt.Errorf("%s exists and is no boxtax database (%v): %w, it may be another program's file; name a new file for the copy", dest, err, ErrDestination)
	}
	return nil
}
