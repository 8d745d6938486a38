package store

import (
	"context"
	"database/sql"
	"encoding/binary"
	"fmt"
	"math"
)

// seriesChunk is how many values one stored chunk holds (512 KiB): a
// one-hour 100 Hz run's 360 000 slices are six rows per series.
const seriesChunk = 1 << 16

// putSeries stores a run's series inside the run's transaction, replacing
// whatever an interrupted attempt left.
func putSeries(ctx context.Context, tx *sql.Tx, runID int64, series []Series) error {
	if _, err := tx.ExecContext(ctx, `DELETE FROM series WHERE run_id=?`, runID); err != nil {
		return err
	}
	stmt, err := tx.PrepareContext(ctx, `INSERT INTO series (run_id, instance, name, unit, chunk, n, data) VALUES (?,?,?,?,?,?,?)`)
	if err != nil {
		return err
	}
	defer stmt.Close()
	for _, s := range series {
		for chunk := 0; ; chunk++ { // an empty series still gets one (empty) chunk
			start := chunk * seriesChunk
			end := min(start+seriesChunk, len(s.Values))
			if _, err := stmt.ExecContext(ctx, runID, s.Instance, s.Name, s.Unit, chunk, end-start, encodeFloat64s(s.Values[start:end])); err != nil {
				return fmt.Errorf("storing series %s of run %d: %w", s.Name, runID, err)
			}
			if end >= len(s.Values) {
				break
			}
		}
	}
	return nil
}

// SeriesNames lists the series a run recorded (every instance's), with their
// units and lengths; Values is empty with the length as its capacity. A
// series whose stored length disagrees with its data is an ErrDamaged
// error naming the run (issue 25 item 8), not a crash.
func (s *Store) SeriesNames(ctx context.Context, runID int64) ([]Series, error) {
	return queryAll(ctx, s.db, func(rows *sql.Rows) (Series, error) {
		var sr Series
		var n, minN, minChunk, dataBytes int64
		var allBlobs bool
		if err := rows.Scan(&sr.Instance, &sr.Name, &sr.Unit, &n, &minN, &minChunk, &allBlobs, &dataBytes); err != nil {
			return sr, err
		}
		if minN < 0 {
			n = minN // a chunk's negative length, whatever the sum
		}
		if err := checkChunk(runID, sr.Name, minChunk, n, allBlobs, dataBytes); err != nil {
			return sr, err
		}
		sr.RunID = runID
		sr.Values = make([]float64, 0, n)
		return sr, nil
	}, `SELECT instance, name, unit, SUM(n), MIN(n), MIN(chunk), MIN(typeof(data) = 'blob'), SUM(length(CAST(data AS BLOB)))
		FROM series WHERE run_id=? GROUP BY instance, name, unit ORDER BY instance, name`, runID)
}

// ReadSeries loads one series of a run (of its first instance when several ran) in full.
func (s *Store) ReadSeries(ctx context.Context, runID int64, name string) (Series, error) {
	return s.ReadInstanceSeries(ctx, runID, -1, name)
}

// ReadInstanceSeries loads one instance's series; instance -1 means the lowest stored.
func (s *Store) ReadInstanceSeries(ctx context.Context, runID int64, instance int, name string) (Series, error) {
	out := Series{RunID: runID, Name: name, Instance: instance}
	if instance < 0 {
		if err := s.db.QueryRowContext(ctx, `SELECT COALESCE(MIN(instance), 0) FROM series WHERE run_id=? AND name=?`, runID, name).Scan(&out.Instance); err != nil {
			return out, err
		}
	}
	rows, err := s.db.QueryContext(ctx, `SELECT unit, chunk, n, typeof(data) = 'blob', data FROM series WHERE run_id=? AND instance=? AND name=? ORDER BY chunk`, runID, out.Instance, name)
	if err != nil {
		return out, err
	}
	defer rows.Close()
	found := false
	for rows.Next() {
		var data []byte
		var chunk, n int64
		var isBlob bool
		if err := rows.Scan(&out.Unit, &chunk, &n, &isBlob, &data); err != nil {
			return out, err
		}
		if err := checkChunk(runID, name, chunk, n, isBlob, int64(len(data))); err != nil {
			return out, err
		}
		vals, err := decodeFloat64s(data)
		if err != nil {
			return out, fmt.Errorf("series %s of run %d: %w", name, runID, err)
		}
		out.Values = append(out.Values, vals...)
		found = true
	}
	if err := rows.Err(); err != nil {
		return out, err
	}
	if !found {
		return out, fmt.Errorf("run %d has no series %q: %w", runID, name, ErrNotFound)
	}
	return out, nil
}

// encodeFloat64s packs values little-endian.
func encodeFloat64s(values []float64) []byte {
	b := make([]byte, 8*len(values))
	for i, v := range values {
		binary.LittleEndian.PutUint64(b[8*i:], math.Float64bits(v))
	}
	return b
}

func decodeFloat64s(b []byte) ([]float64, error) {
	if len(b)%8 != 0 {
		return nil, fmt.Errorf("corrupt series chunk of %d bytes", len(b))
	}
	out := make([]float64, len(b)/8)
	for i := range out {
		out[i] = math.Float64frombits(binary.LittleEndian.Uint64(b[8*i:]))
	}
	return out, nil
}
