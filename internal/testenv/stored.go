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
	db, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
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
	db, err := store.Open(context.Background(), path)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

// CreateStudy writes study st with its runs into the store file at path
// (created if missing) and closes the file, as `boxtax run` leaves a study
// it has planned; st.ID is set. The test fails when the file cannot be
// written.
func CreateStudy(tb testing.TB, path string, st *store.Study, runs []store.Run) {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateStudy(ctx, st, runs); err != nil {
		tb.Fatal(err)
	}
}

// FinishedStudy writes study st into the store file at path as `boxtax run`
// leaves one that is done, and closes the file: the study with its runs,
// each run finished ok with the samples finish gives (finish may also set
// the run's times), and the study marked finished. The test fails when the
// file cannot be written.
func FinishedStudy(tb testing.TB, path string, st *store.Study, runs []store.Run, finish func(r *store.Run) []store.Sample) {
	tb.Helper()
	ctx := context.Background()
	db, err := store.Open(ctx, path)
	if err != nil {
		tb.Fatal(err)
	}
	defer db.Close()
	if err := db.CreateStudy(ctx, st, runs); err != nil {
		tb.Fatal(err)
	}
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
}
