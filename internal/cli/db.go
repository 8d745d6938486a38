package cli

import (
	"context"
	"errors"
	"io/fs"

	"github.com/boxtax/boxtax/internal/store"
)

// dbDefaultHelp is how every --db flag's help names its default.
const dbDefaultHelp = "default $BOXTAX_DB, else boxtax.db"

// defaultDB is the database a --db flag defaults to: $BOXTAX_DB if set,
// else boxtax.db in the current directory.
func defaultDB(g *Globals) string {
	if g.Getenv != nil {
		if db := g.Getenv("BOXTAX_DB"); db != "" {
			return db
		}
	}
	return "boxtax.db"
}

// openExisting opens a database that must exist already, for reading
// only: a reader never waits for a running study's writes, works on a file
// it may only read, and writes nothing. A missing or empty file is the
// user's mistake (exit 2) and says to run a study first; a permission
// problem says so, and on what (store.OpenReadOnly).
func openExisting(ctx context.Context, path string) (*store.Store, error) {
	db, err := store.OpenReadOnly(ctx, path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, usagef("no database at %s: run a study first (boxtax run) or pass --db", path)
	case errors.Is(err, store.ErrEmpty), errors.Is(err, fs.ErrPermission):
		return nil, usageError{err}
	}
	return db, err
}

// openStudyDB opens the database at path for reading (openExisting) and
// resolves study id in it (0: the latest); the caller closes db.
func openStudyDB(ctx context.Context, path string, id int64) (*store.Store, int64, error) {
	db, err := openExisting(ctx, path)
	if err != nil {
		return nil, 0, err
	}
	if id, err = resolveStudy(ctx, db, id); err != nil {
		db.Close()
		return nil, 0, err
	}
	return db, id, nil
}

// resolveStudy returns id, or the latest study's when id is 0.
func resolveStudy(ctx context.Context, db *store.Store, id int64) (int64, error) {
	if id != 0 {
		return id, nil
	}
	st, err := db.LatestStudy(ctx, false)
	if err != nil {
		return 0, usageError{err}
	}
	return st.ID, nil
}
