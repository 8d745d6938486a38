package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"time"

	"modernc.org/sqlite" // registers the pure-Go "sqlite" driver
	sqlite3 "modernc.org/sqlite/lib"
)

// ErrNotFound is returned when a study does not exist.
var ErrNotFound = errors.New("not found")

// Store is a SQLite database of studies.
type Store struct {
	db      *sql.DB
	path    string
	onClose func() // after the database is closed: a reader's clean-up
}

// Open opens (creating if needed) the database at path.
func Open(ctx context.Context, path string) (*Store, error) {
	uri, err := fileURI(path)
	if err != nil {
		return nil, err
	}
	if err := checkWritable(path); err != nil {
		return nil, err
	}
	if err := checkOneName(path); err != nil {
		return nil, err
	}
	if err := checkExisting(ctx, path); err != nil {
		return nil, err
	}
	dsn := uri + "?_pragma=busy_timeout(10000)&_pragma=journal_mode(WAL)&_pragma=foreign_keys(1)&_pragma=synchronous(NORMAL)"
	var db *sql.DB
	var version int
	// Two processes opening a new file at once race to switch it to WAL;
	// the loser gets SQLITE_BUSY at once (the busy timeout does not cover
	// the journal mode change), so try again for as long as the timeout.
	for deadline := time.Now().Add(10 * time.Second); ; {
		if db, err = sql.Open("sqlite", dsn); err != nil {
			return nil, fmt.Errorf("opening %s: %w", path, err)
		}
		db.SetMaxOpenConns(1) // one writer; SQLite serialises anyway
		err = db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&version)
		if err == nil {
			break
		}
		db.Close()
		if !isBusy(err) || time.Now().After(deadline) || ctx.Err() != nil {
			return nil, fmt.Errorf("opening %s: is it a boxtax SQLite database? %w", path, err)
		}
		time.Sleep(time.Duration(10+rand.IntN(40)) * time.Millisecond)
	}
	if version > schemaVersion {
		db.Close()
		return nil, fmt.Errorf("%s was written by a newer boxtax (schema %d, this one knows %d): upgrade boxtax", path, version, schemaVersion)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("creating tables in %s: %w", path, err)
	}
	if err := addMissingColumns(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("upgrading %s: %w", path, err)
	}
	if err := migrateStudyUID(ctx, db); err != nil {
		db.Close()
		return nil, fmt.Errorf("upgrading %s: %w", path, err)
	}
	if _, err := db.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", schemaVersion)); err != nil {
		db.Close()
		return nil, fmt.Errorf("setting schema version in %s: %w", path, err)
	}
	return &Store{db: db, path: path}, nil
}

// isBusy tells whether err is SQLite's SQLITE_BUSY (or SQLITE_LOCKED):
// another connection holds the lock.
func isBusy(err error) bool {
	var se *sqlite.Error
	if errors.As(err, &se) {
		c := se.Code() & 0xff
		return c == sqlite3.SQLITE_BUSY || c == sqlite3.SQLITE_LOCKED
	}
	return false
}

// Path is the database file.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error {
	err := s.db.Close()
	if s.onClose != nil {
		s.onClose()
		s.onClose = nil
	}
	return err
}

// CreateStudy stores a new study together with its planned runs, all pending.
func (s *Store) CreateStudy(ctx context.Context, st *Study, runs []Run) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	st.CreatedAt = time.Now()
	st.Status = StudyRunning
	res, err := tx.ExecContext(ctx, `INSERT INTO studies (name, spec_yaml, seed, host_json, status, created_at) VALUES (?,?,?,?,?,?)`,
		st.Name, st.SpecYAML, st.Seed, st.HostJSON, st.Status, st.CreatedAt.UnixNano())
	if err != nil {
		return fmt.Errorf("storing study: %w", err)
	}
	if st.ID, err = res.LastInsertId(); err != nil {
		return err
	}
	if err := insertPendingRuns(ctx, tx, st.ID, runs, ""); err != nil {
		return err
	}
	return tx.Commit()
}

// FinishRun records a run's outcome, its samples and its series in one transaction.
func (s *Store) FinishRun(ctx context.Context, r *Run, samples []Sample, series []Series) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, `UPDATE runs SET status=?, reason=?, settings_json=?, notes_json=?, started_at=?, ended_at=? WHERE id=?`,
		r.Status, r.Reason, mustJSON(r.Settings), mustJSON(r.Notes), r.Started.UnixNano(), r.Ended.UnixNano(), r.ID); err != nil {
		return fmt.Errorf("storing run %d: %w", r.ID, err)
	}
	// A resumed run replaces whatever an interrupted attempt left.
	if _, err := tx.ExecContext(ctx, `DELETE FROM samples WHERE run_id=?`, r.ID); err != nil {
		return err
	}
	for _, smp := range samples {
		if _, err := tx.ExecContext(ctx, `INSERT INTO samples (run_id, instance, metric, value, unit) VALUES (?,?,?,?,?)`,
			r.ID, smp.Instance, smp.Metric, smp.Value, smp.Unit); err != nil {
			return fmt.Errorf("storing sample of run %d: %w", r.ID, err)
		}
	}
	if err := putSeries(ctx, tx, r.ID, series); err != nil {
		return err
	}
	return tx.Commit()
}

// SetStudyStatus marks a study running, interrupted or finished.
func (s *Store) SetStudyStatus(ctx context.Context, id int64, status string) error {
	var finished any
	if status == StudyFinished {
		finished = time.Now().UnixNano()
	}
	_, err := s.db.ExecContext(ctx, `UPDATE studies SET status=?, finished_at=? WHERE id=?`, status, finished, id)
	return err
}

func mustJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("store: cannot encode %T: %v", v, err))
	}
	return string(b)
}

// addMissingColumns upgrades databases written before a column existed:
// samples and series got their instance column after the first studies.
func addMissingColumns(ctx context.Context, db *sql.DB) error {
	for _, table := range []string{"samples", "series"} {
		var n int
		if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM pragma_table_info(?) WHERE name = 'instance'`, table).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			if _, err := db.ExecContext(ctx, `ALTER TABLE `+table+` ADD COLUMN instance INTEGER NOT NULL DEFAULT 0`); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkExisting refuses, before anything is written to it, an existing file
// that is not a boxtax database (another application's SQLite file must not
// get boxtax's tables; issue 15 items 5 and 15). A missing or empty file is
// fine: Open makes the database.
func checkExisting(ctx context.Context, path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, err)
	}
	if fi.IsDir() {
		return fmt.Errorf("%s is a directory, not a database file: give a file name, e.g. %s", path, filepath.Join(path, "boxtax.db"))
	}
	if fi.Size() == 0 {
		return nil
	}
	return CheckOutput(ctx, path)
}
