package testenv

import (
	"context"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
)

// Stored is the latest study in the store file at path, as a test that ran
// the real boxtax binary reads it back: the study, its runs and its
// samples. The test fails when the file cannot be read.
func Stored(tb testing.TB, path string) (store.Study, []store.Run, []store.Sample) {
	tb.Helper()
	ctx := context.Background()
	db := openFile(tb, store.OpenReadOnly, path)
	defer db.Close()
	st, err := db.LatestStudy(ctx, false)
	if err != nil {
		tb.Fatal(err)
	}
	runs, err := db.Runs(ctx, st.ID)
	if err != nil {
		tb.Fatal(err)
	}
	samples, err := db.Samples(ctx, st.ID)
	if err != nil {
		tb.Fatal(err)
	}
	return st, runs, samples
}

// OpenStore opens the store file at path (created if missing) and closes
// it when the test ends; the test stops if the file cannot be opened.
func OpenStore(tb testing.TB, path string) *store.Store {
	tb.Helper()
	db := openFile(tb, store.Open, path)
	tb.Cleanup(func() { db.Close() })
	return db
}

// openFile opens the store file at path with open (store.Open or
// store.OpenReadOnly), or stops the test.
func openFile(tb testing.TB, open func(context.Context, string) (*store.Store, error), path string) *store.Store {
	tb.Helper()
	db, err := open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	return db
}

// CreateStudy writes study st with its runs into the store file at path
// (created if missing) and closes the file, as `boxtax run` leaves a study
// it has planned; st.ID is set. The test fails when the file cannot be
// written.
func CreateStudy(tb testing.TB, path string, st *store.Study, runs []store.Run) {
	tb.Helper()
	writeStudy(tb, path, st, runs, nil)
}

// FinishedStudy writes study st into the store file at path as `boxtax run`
// leaves one that is done, and closes the file: the study with its runs,
// each run finished ok with the samples finish gives (finish may also set
// the run's times), and the study marked finished. The test fails when the
// file cannot be written.
func FinishedStudy(tb testing.TB, path string, st *store.Study, runs []store.Run, finish func(r *store.Run) []store.Sample) {
	tb.Helper()
	writeStudy(tb, path, st, runs, func(ctx context.Context, db *store.Store) {
		for i := range runs {
			r := &runs[i]
			r.Status = store.RunOK
			if err := db.FinishRun(ctx, r, finish(r), nil); err != nil {
				tb.Fatal(err)
			}
		}
		if err := db.SetStudyStatus(ctx, st.ID, store.StudyFinished); err != nil {
			tb.Fatal(err)
		}
	})
}

// writeStudy creates study st with its runs in the store file at path,
// lets then (when set) go on writing, and closes the file.
func writeStudy(tb testing.TB, path string, st *store.Study, runs []store.Run, then func(ctx context.Context, db *store.Store)) {
	tb.Helper()
	ctx := context.Background()
	db := openFile(tb, store.Open, path)
	defer db.Close()
	if err := db.CreateStudy(ctx, st, runs); err != nil {
		tb.Fatal(err)
	}
	if then != nil {
		then(ctx, db)
	}
}
