package cli

import (
	"context"
	"fmt"
	"path/filepath"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study"
)

// manyStride numbers the studies of several databases apart: study ID of
// the k-th database (from 0) is served as k*manyStride + ID, so the first
// database keeps its ids and a study's number never changes while the
// server runs, whatever the others add.
const manyStride = 1_000_000

// manySource gives the browser the studies of several databases (one per
// device, say), each name marked with its file and device.
type manySource struct{ dbs []*servedDB }

func (m *manySource) Studies(ctx context.Context) ([]store.Study, error) {
	var out []store.Study
	for k, d := range m.dbs {
		sts, err := d.db.Studies(ctx)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", d.path, err)
		}
		for _, st := range sts {
			st.Name = fmt.Sprintf("%s [%s, %s:%d]", st.Name, study.DeviceOf(st), filepath.Base(d.path), st.ID)
			st.ID += int64(k) * manyStride
			out = append(out, st)
		}
	}
	return out, nil
}

func (m *manySource) Open(ctx context.Context, id int64) (*study.Stored, error) {
	k := id / manyStride
	if id <= 0 || k >= int64(len(m.dbs)) {
		return nil, fmt.Errorf("study %d: %w", id, store.ErrNotFound)
	}
	st, err := dbSource{m.dbs[k]}.Open(ctx, id%manyStride)
	if err != nil {
		return nil, err
	}
	st.Study.ID = id // the series are read by run, not by study
	return st, nil
}
