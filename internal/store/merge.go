package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"time"
)

// ErrNotBoxtax marks an input that is not a boxtax database (another SQLite
// file, a damaged one, or no database at all).
var ErrNotBoxtax = errors.New("not a boxtax database")

// MergedStudy is one study of a merge input and what became of it.
type MergedStudy struct {
	UID     string
	Name    string
	Status  string
	FromID  int64 // its id in the input
	ToID    int64 // its id in the output
	Runs    int   // runs copied
	Samples int
	Chunks  int // series chunks copied
}

// MergeResult says what one input added to the output.
type MergeResult struct {
	Input string
	// Added are studies that were not in the output; Updated were there
	// unfinished and the input has more of their runs done (a study resumed
	// on its device since the last merge); Skipped were there already with
	// as many runs done.
	Added, Updated, Skipped []MergedStudy
}

// Merge copies the studies of the boxtax database at inPath into s, with
// their runs, samples, series and host facts, under new ids. A study is
// known by its uid: one already in s is skipped, or replaced when the input
// has more of its runs done. The input is only read. Everything one input
// adds is one transaction, begun IMMEDIATE so two merges into the same file
// at once take turns (the busy timeout waits for the other), and a failure
// leaves s as it was.
func (s *Store) Merge(ctx context.Context, inPath string) (MergeResult, error) {
	res := MergeResult{Input: inPath}
	if err := notSameFile(s.path, inPath); err != nil {
		return res, err
	}
	in, err := openMergeInput(ctx, inPath)
	if err != nil {
		return res, err
	}
	defer in.Close()
	studies, err := inputStudies(ctx, in, inPath)
	if err != nil {
		return res, err
	}
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return res, err
	}
	defer conn.Close()
	if _, err := conn.ExecContext(ctx, `BEGIN IMMEDIATE`); err != nil {
		return res, fmt.Errorf("locking %s for the merge (is another program writing it?): %w", s.path, err)
	}
	committed := false
	defer func() {
		if !committed {
			_, _ = conn.ExecContext(context.WithoutCancel(ctx), `ROLLBACK`)
		}
	}()
	for _, st := range studies {
		m := MergedStudy{UID: st.uid, Name: st.Name, Status: st.Status, FromID: st.ID}
		var outID int64
		var outStatus string
		var outDone int
		err := conn.QueryRowContext(ctx, `SELECT s.id, s.status, (SELECT COUNT(*) FROM runs r WHERE r.study_id = s.id AND r.status != ?) FROM studies s WHERE s.uid = ?`,
			RunPending, st.uid).Scan(&outID, &outStatus, &outDone)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			r, err := conn.ExecContext(ctx, `INSERT INTO studies (name, spec_yaml, seed, host_json, status, created_at, finished_at, uid) VALUES (?,?,?,?,?,?,?,?)`,
				st.Name, st.SpecYAML, st.Seed, st.HostJSON, st.Status, st.CreatedAt.UnixNano(), nullTime(st), st.uid)
			if err != nil {
				return res, fmt.Errorf("copying study %d of %s: %w", st.ID, inPath, err)
			}
			if m.ToID, err = r.LastInsertId(); err != nil {
				return res, err
			}
			if err := copyRuns(ctx, in, conn, &m); err != nil {
				return res, fmt.Errorf("copying study %d of %s: %w", st.ID, inPath, err)
			}
			res.Added = append(res.Added, m)
		case err != nil:
			return res, fmt.Errorf("looking up study %s in %s: %w", st.uid, s.path, err)
		case outStatus != StudyFinished && (st.done > outDone || st.Status == StudyFinished):
			m.ToID = outID
			if err := dropRuns(ctx, conn, outID); err != nil {
				return res, fmt.Errorf("replacing study %d of %s: %w", outID, s.path, err)
			}
			if _, err := conn.ExecContext(ctx, `UPDATE studies SET status=?, finished_at=?, host_json=? WHERE id=?`, st.Status, nullTime(st), st.HostJSON, outID); err != nil {
				return res, err
			}
			if err := copyRuns(ctx, in, conn, &m); err != nil {
				return res, fmt.Errorf("copying study %d of %s: %w", st.ID, inPath, err)
			}
			res.Updated = append(res.Updated, m)
		default:
			m.ToID = outID
			res.Skipped = append(res.Skipped, m)
		}
	}
	if _, err := conn.ExecContext(ctx, `COMMIT`); err != nil {
		return res, fmt.Errorf("committing the merge of %s into %s: %w", inPath, s.path, err)
	}
	committed = true
	return res, nil
}

// mergeStudy is a study of a merge input with its uid and how many of its
// runs are done (ok or failed).
type mergeStudy struct {
	Study
	uid  string
	done int
}

func nullTime(st mergeStudy) any {
	if st.FinishedAt.IsZero() {
		return nil
	}
	return st.FinishedAt.UnixNano()
}

// inputStudies reads the studies of a merge input with their uids (derived
// for an input written before uids existed, as its upgrade would).
func inputStudies(ctx context.Context, in *sql.DB, path string) ([]mergeStudy, error) {
	hasUID, err := hasColumn(ctx, in, "studies", "uid")
	if err != nil {
		return nil, err
	}
	uidCol := "NULL"
	if hasUID {
		uidCol = "uid"
	}
	rows, err := in.QueryContext(ctx, `SELECT `+studyCols+`, `+uidCol+`, (SELECT COUNT(*) FROM runs r WHERE r.study_id = studies.id AND r.status != ?) FROM studies ORDER BY id`, RunPending)
	if err != nil {
		return nil, fmt.Errorf("reading the studies of %s: %w", path, err)
	}
	defer rows.Close()
	var out []mergeStudy
	for rows.Next() {
		var st mergeStudy
		var uid sql.NullString
		var created int64
		var finished sql.NullInt64
		if err := rows.Scan(&st.ID, &st.Name, &st.SpecYAML, &st.Seed, &st.HostJSON, &st.Status, &created, &finished, &uid, &st.done); err != nil {
			return nil, fmt.Errorf("reading the studies of %s: %w", path, err)
		}
		st.CreatedAt = unixNano(created)
		if finished.Valid {
			st.FinishedAt = unixNano(finished.Int64)
		}
		st.uid = uid.String
		if st.uid == "" {
			st.uid = derivedUID(st.Study)
		}
		out = append(out, st)
	}
	return out, rows.Err()
}

// copyRuns copies a study's runs, then their samples and series, mapping
// run ids of the input to new ones.
func copyRuns(ctx context.Context, in *sql.DB, out *sql.Conn, m *MergedStudy) error {
	rows, err := in.QueryContext(ctx, `SELECT id, seq, cell_key, workload, env, levels_json, params_json, rep, warmup, status, reason, settings_json, notes_json, started_at, ended_at FROM runs WHERE study_id=? ORDER BY seq`, m.FromID)
	if err != nil {
		return err
	}
	defer rows.Close()
	ids := map[int64]int64{}
	for rows.Next() {
		var (
			id, rep, warmup                                                int64
			seq                                                            int64
			cell, wl, env, levels, params, status, reason, settings, notes string
			started, ended                                                 sql.NullInt64
		)
		if err := rows.Scan(&id, &seq, &cell, &wl, &env, &levels, &params, &rep, &warmup, &status, &reason, &settings, &notes, &started, &ended); err != nil {
			return err
		}
		r, err := out.ExecContext(ctx, `INSERT INTO runs (study_id, seq, cell_key, workload, env, levels_json, params_json, rep, warmup, status, reason, settings_json, notes_json, started_at, ended_at) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`,
			m.ToID, seq, cell, wl, env, levels, params, rep, warmup, status, reason, settings, notes, started, ended)
		if err != nil {
			return fmt.Errorf("run %d: %w", id, err)
		}
		if ids[id], err = r.LastInsertId(); err != nil {
			return err
		}
		m.Runs++
	}
	if err := rows.Err(); err != nil {
		return err
	}
	rows.Close()
	hasInstance, err := hasColumn(ctx, in, "samples", "instance")
	if err != nil {
		return err
	}
	instance := "0"
	if hasInstance {
		instance = "s.instance"
	}
	srows, err := in.QueryContext(ctx, `SELECT s.run_id, `+instance+`, s.metric, s.value, s.unit FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.study_id=? ORDER BY s.rowid`, m.FromID)
	if err != nil {
		return err
	}
	defer srows.Close()
	for srows.Next() {
		var runID, inst int64
		var metric, unit string
		var value float64
		if err := srows.Scan(&runID, &inst, &metric, &value, &unit); err != nil {
			return err
		}
		if _, err := out.ExecContext(ctx, `INSERT INTO samples (run_id, instance, metric, value, unit) VALUES (?,?,?,?,?)`, ids[runID], inst, metric, value, unit); err != nil {
			return fmt.Errorf("sample of run %d: %w", runID, err)
		}
		m.Samples++
	}
	if err := srows.Err(); err != nil {
		return err
	}
	srows.Close()
	if hasInstance, err = hasColumn(ctx, in, "series", "instance"); err != nil {
		return err
	}
	instance = "0"
	if hasInstance {
		instance = "s.instance"
	}
	crows, err := in.QueryContext(ctx, `SELECT s.run_id, `+instance+`, s.name, s.unit, s.chunk, s.n, typeof(s.data) = 'blob', s.data FROM series s JOIN runs r ON r.id = s.run_id WHERE r.study_id=?`, m.FromID)
	if err != nil {
		return err
	}
	defer crows.Close()
	for crows.Next() {
		var runID, inst, chunk, n int64
		var name, unit string
		var isBlob bool
		var data []byte
		if err := crows.Scan(&runID, &inst, &name, &unit, &chunk, &n, &isBlob, &data); err != nil {
			return err
		}
		if err := checkChunk(runID, name, chunk, n, isBlob, int64(len(data))); err != nil {
			return fmt.Errorf("%w: %w", ErrNotBoxtax, err)
		}
		if _, err := out.ExecContext(ctx, `INSERT INTO series (run_id, instance, name, unit, chunk, n, data) VALUES (?,?,?,?,?,?,?)`, ids[runID], inst, name, unit, chunk, n, data); err != nil {
			return fmt.Errorf("series %s of run %d: %w", name, runID, err)
		}
		m.Chunks++
	}
	return crows.Err()
}

// dropRuns deletes a study's runs with their samples and series.
func dropRuns(ctx context.Context, conn *sql.Conn, studyID int64) error {
	for _, q := range []string{
		`DELETE FROM series WHERE run_id IN (SELECT id FROM runs WHERE study_id=?)`,
		`DELETE FROM samples WHERE run_id IN (SELECT id FROM runs WHERE study_id=?)`,
		`DELETE FROM runs WHERE study_id=?`,
	} {
		if _, err := conn.ExecContext(ctx, q, studyID); err != nil {
			return err
		}
	}
	return nil
}

// notSameFile refuses to merge a database into itself.
func notSameFile(out, in string) error {
	a, errA := os.Stat(out)
	b, errB := os.Stat(in)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return fmt.Errorf("%s is the output database itself: name the databases to merge into it", in)
	}
	return nil
}

// fileURI makes an SQLite URI of a file path, escaping the characters that
// would end the path part.
func unixNano(ns int64) time.Time { return time.Unix(0, ns) }

// CheckOutput tells whether the file at path may be merged into: empty, a
// boxtax database, or one another boxtax process is creating right now
// (tables appear before the schema version is set). Another program's
// SQLite file, or no SQLite file at all, is refused, unchanged.
func CheckOutput(ctx context.Context, path string) error {
	db, err := openFile(path, true)
	if err != nil {
		return err
	}
	defer db.Close()
	var tables int
	if err := db.QueryRowContext(ctx, `SELECT COUNT(*) FROM sqlite_schema WHERE type = 'table'`).Scan(&tables); err != nil {
		return fmt.Errorf("%s: %w: SQLite cannot read it (%v)", path, ErrNotBoxtax, err)
	}
	if tables == 0 {
		return nil
	}
	for _, col := range []string{"id", "name", "spec_yaml", "host_json", "status"} {
		ok, err := hasColumn(ctx, db, "studies", col)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if !ok {
			return fmt.Errorf("%s: %w: it has tables but no studies.%s", path, ErrNotBoxtax, col)
		}
	}
	return nil
}
