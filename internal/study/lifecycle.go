package study

import (
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"

	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/store"
)

// A study is started once and resumed any number of times; either way it
// is locked (store.LockStudy) while one process runs it, and Runner does
// its pending runs.

// Start stores a new study of a validated spec: it draws the seed when the
// spec gives none (recorded, so the order can be replayed), plans the runs
// and stores them, all pending, with the host facts. The study stays
// locked until release is called.
func Start(ctx context.Context, db *store.Store, spec *Spec, host hostinfo.Host) (s *Stored, release func(), err error) {
	if spec.Seed == 0 {
		spec.Seed = rand.Int64N(1<<53) + 1
	}
	runs, err := spec.Plan(spec.Seed)
	if err != nil {
		return nil, nil, err
	}
	hostJSON, err := json.Marshal(host)
	if err != nil {
		return nil, nil, fmt.Errorf("recording the host facts: %w", err)
	}
	st := store.Study{Name: spec.Name, SpecYAML: spec.YAML(), Seed: spec.Seed, HostJSON: string(hostJSON)}
	if err := db.CreateStudy(ctx, &st, runs); err != nil {
		return nil, nil, err
	}
	if release, err = store.LockStudy(db.Path(), st.ID); err != nil {
		return nil, nil, err
	}
	return &Stored{Study: st, Spec: spec, Host: host, Runs: runs, Store: db}, release, nil
}

// Resume opens the newest unfinished study of db to do its pending runs.
// Its spec must still validate with this boxtax and suit this host. When
// there is none, the error wraps store.ErrNotFound. The study stays locked
// until release is called.
func Resume(ctx context.Context, db *store.Store) (s *Stored, release func(), err error) {
	st, err := db.LatestStudy(ctx, true)
	if err != nil {
		return nil, nil, fmt.Errorf("nothing to resume: %w", err)
	}
	if release, err = store.LockStudy(db.Path(), st.ID); err != nil {
		return nil, nil, err
	}
	if s, err = Open(ctx, db, st.ID); err != nil {
		release()
		return nil, nil, err
	}
	err = s.SpecErr
	if err == nil {
		s.Spec.Normalize(engines.Names())
		if err = s.Spec.Validate(engines.Names()); err == nil {
			err = s.Spec.CheckHost()
		}
	}
	if err != nil {
		release()
		return nil, nil, fmt.Errorf("study %d cannot be resumed by this boxtax: %w", st.ID, err)
	}
	return s, release, nil
}
