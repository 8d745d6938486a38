package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

const studyCols = `id, name, spec_yaml, seed, host_json, status, created_at, finished_at`

func scanStudy(row interface{ Scan(...any) error }) (Study, error) {
	var st Study
	var created int64
	var finished sql.NullInt64
	if err := row.Scan(&st.ID, &st.Name, &st.SpecYAML, &st.Seed, &st.HostJSON, &st.Status, &created, &finished); err != nil {
		return st, err
	}
	st.CreatedAt = time.Unix(0, created)
	if finished.Valid {
		st.FinishedAt = time.Unix(0, finished.Int64)
	}
	return st, nil
}

// Study loads one study by id.
func (s *Store) Study(ctx context.Context, id int64) (Study, error) {
	st, err := scanStudy(s.db.QueryRowContext(ctx, `SELECT `+studyCols+` FROM studies WHERE id=?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return st, fmt.Errorf("study %d in %s: %w", id, s.path, ErrNotFound)
	}
	return st, err
}

// LatestStudy loads the newest study; with unfinished set, the newest that is not finished.
func (s *Store) LatestStudy(ctx context.Context, unfinished bool) (Study, error) {
	q := `SELECT ` + studyCols + ` FROM studies`
	if unfinished {
		q += ` WHERE status != '` + StudyFinished + `'`
	}
	st, err := scanStudy(s.db.QueryRowContext(ctx, q+` ORDER BY id DESC LIMIT 1`))
	if errors.Is(err, sql.ErrNoRows) {
		what := "no study"
		if unfinished {
			what = "no unfinished study"
		}
		return st, fmt.Errorf("%s in %s: %w", what, s.path, ErrNotFound)
	}
	return st, err
}

// Studies lists every study, oldest first.
func (s *Store) Studies(ctx context.Context) ([]Study, error) {
	return queryAll(ctx, s.db, func(rows *sql.Rows) (Study, error) { return scanStudy(rows) },
		`SELECT `+studyCols+` FROM studies ORDER BY id`)
}

// queryAll runs query and reads each of its rows with scan.
func queryAll[T any](ctx context.Context, db *sql.DB, scan func(*sql.Rows) (T, error), query string, args ...any) ([]T, error) {
	rows, err := db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// Runs lists a study's runs in their planned order.
func (s *Store) Runs(ctx context.Context, studyID int64) ([]Run, error) {
	return queryAll(ctx, s.db, scanRun,
		`SELECT id, study_id, seq, cell_key, workload, env, levels_json, params_json, rep, warmup, status, reason, settings_json, notes_json, started_at, ended_at FROM runs WHERE study_id=? ORDER BY seq`, studyID)
}

func scanRun(rows *sql.Rows) (Run, error) {
	var r Run
	var levels, params, settings, notes string
	var started, ended sql.NullInt64
	if err := rows.Scan(&r.ID, &r.StudyID, &r.Seq, &r.CellKey, &r.Workload, &r.Env, &levels, &params, &r.Rep, &r.Warmup, &r.Status, &r.Reason, &settings, &notes, &started, &ended); err != nil {
		return r, err
	}
	for _, f := range []struct {
		src string
		dst any
	}{{levels, &r.Levels}, {params, &r.Params}, {settings, &r.Settings}, {notes, &r.Notes}} {
		if err := json.Unmarshal([]byte(f.src), f.dst); err != nil {
			return r, fmt.Errorf("run %d: corrupt record: %w", r.ID, err)
		}
	}
	if started.Valid {
		r.Started = time.Unix(0, started.Int64)
	}
	if ended.Valid {
		r.Ended = time.Unix(0, ended.Int64)
	}
	return r, nil
}

// Samples lists every sample of a study's runs.
func (s *Store) Samples(ctx context.Context, studyID int64) ([]Sample, error) {
	return queryAll(ctx, s.db, func(rows *sql.Rows) (Sample, error) {
		var smp Sample
		err := rows.Scan(&smp.RunID, &smp.Instance, &smp.Metric, &smp.Value, &smp.Unit)
		return smp, err
	}, `SELECT s.run_id, s.instance, s.metric, s.value, s.unit FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.study_id=? ORDER BY r.seq, s.instance, s.rowid`, studyID)
}
