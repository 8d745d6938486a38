package study

import (
	"context"
	"os"

	"github.com/boxtax/boxtax/internal/store"
)

// exists says whether there is a file at path.
func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// removeUnusedDB closes a database this study made and removes it, with
// SQLite's -wal and -shm files, if no study is stored in it: a study
// interrupted or refused during its check runs keeps nothing, not even an
// empty database.
func removeUnusedDB(ctx context.Context, db *store.Store) {
	studies, err := db.Studies(context.WithoutCancel(ctx))
	if err != nil || len(studies) > 0 {
		return
	}
	path := db.Path()
	if db.Close() != nil {
		return
	}
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		_ = os.Remove(p)
	}
}
