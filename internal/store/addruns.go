package store

import (
	"context"
	"database/sql"
	"fmt"
)

// AddRuns stores more planned runs, all pending, in an existing study: the
// rounds an adaptive study adds until its overheads are precise enough.
func (s *Store) AddRuns(ctx context.Context, studyID int64, runs []Run) error {
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := insertPendingRuns(ctx, tx, studyID, runs, fmt.Sprintf(" of study %d", studyID)); err != nil {
		return err
	}
	return tx.Commit()
}

// insertPendingRuns stores runs, all pending, in study studyID within tx and
// sets their IDs; where follows the run's number in an error (" of study 5").
func insertPendingRuns(ctx context.Context, tx *sql.Tx, studyID int64, runs []Run, where string) error {
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO runs (study_id, seq, cell_key, workload, env, levels_json, params_json, rep, warmup, status) VALUES (?,?,?,?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for i := range runs {
		r := &runs[i]
		r.StudyID, r.Status = studyID, RunPending
		res, err := stmt.ExecContext(ctx, r.StudyID, r.Seq, r.CellKey, r.Workload, r.Env,
			mustJSON(r.Levels), mustJSON(r.Params), r.Rep, r.Warmup, r.Status)
		if err != nil {
			return fmt.Errorf("storing run %d%s: %w", r.Seq, where, err)
		}
		if r.ID, err = res.LastInsertId(); err != nil {
			return err
		}
	}
	return nil
}
