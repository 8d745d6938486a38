package study

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/store"
)

// Stored is a study read back from a database: its record, its spec with
// the defaults filled in, the host it ran on, its runs in planned order and
// their samples. Reports, analyses, comparisons and --resume all start from
// one, so a stored study is read, and its baseline chosen, in one place.
type Stored struct {
	store.Study // the record: id, name, seed, status, times; spec and host as stored
	// Spec is the stored spec with its defaults filled in (FillDefaults),
	// not validated again; nil when it cannot be read, and SpecErr says why.
	Spec    *Spec
	SpecErr error
	Host    hostinfo.Host
	Runs    []store.Run
	Samples []store.Sample
	// Store is the database the study was read from. Series are read from
	// it when needed: they are too long to read with every study.
	Store *store.Store
	// Earlier is what the earlier studies of the same host in Store
	// measured of each cell (EarlierOf): the verdicts carry their spread.
	Earlier result.Earlier
}

// Open reads study id of db with its runs and samples, and what the
// earlier studies of its host measured (EarlierOf). An unknown id wraps
// store.ErrNotFound. A spec that cannot be read is no error here (a report
// still shows the runs); it is in SpecErr.
func Open(ctx context.Context, db *store.Store, id int64) (*Stored, error) {
	s, err := OpenOwn(ctx, db, id)
	if err != nil {
		return nil, err
	}
	if s.Earlier, err = EarlierOf(ctx, db, s.Study); err != nil {
		return nil, err
	}
	return s, nil
}

// OpenOwn is Open without the earlier studies: for what needs the study's
// own runs alone (its baseline's values, a study judged by itself).
func OpenOwn(ctx context.Context, db *store.Store, id int64) (*Stored, error) {
	st, err := db.Study(ctx, id)
	if err != nil {
		return nil, err
	}
	s := &Stored{Study: st, Host: hostinfo.Parse(st.HostJSON), Store: db}
	if s.Spec, s.SpecErr = ParseSpec(fmt.Sprintf("study %d", st.ID), []byte(st.SpecYAML)); s.SpecErr == nil {
		s.Spec.FillDefaults()
	}
	if s.Runs, err = db.Runs(ctx, id); err != nil {
		return nil, err
	}
	if s.Samples, err = db.Samples(ctx, id); err != nil {
		return nil, err
	}
	return s, nil
}

// MaxEarlierStudies is how many earlier studies of the same host a study
// is held against (its verdicts' spread between studies, its baseline's
// moves): the most recent ones, so that a database of years of studies
// stays quick to report on.
const MaxEarlierStudies = 10

// EarlierStudies lists the studies in db before st (by id) that ran on
// st's machine (SameMachine), oldest first, the last MaxEarlierStudies.
func EarlierStudies(ctx context.Context, db *store.Store, st store.Study) ([]store.Study, error) {
	all, err := db.Studies(ctx)
	if err != nil {
		return nil, err
	}
	var out []store.Study
	for _, e := range all {
		if e.ID < st.ID && SameMachine(st, e) {
			out = append(out, e)
		}
	}
	return out[max(0, len(out)-MaxEarlierStudies):], nil
}

// EarlierOf reads what the earlier studies of st's host (EarlierStudies)
// measured of each cell, each judged against its own baseline
// (result.Earlier.Add). A study whose spec cannot be read is left out.
func EarlierOf(ctx context.Context, db *store.Store, st store.Study) (result.Earlier, error) {
	studies, err := EarlierStudies(ctx, db, st)
	if err != nil {
		return nil, err
	}
	earlier := result.Earlier{}
	for _, e := range studies {
		s, err := OpenOwn(ctx, db, e.ID)
		if err != nil {
			return nil, err
		}
		if s.SpecErr == nil {
			earlier.Add(s.Spec.Baseline, s.Runs, s.Samples)
		}
	}
	return earlier, nil
}

// DeviceOf is the device a stored study ran on, as its host facts name it
// (hostinfo.Host.Label): the --device label of a fleet, else the hostname,
// else "unknown". A database merged from a fleet holds several.
func DeviceOf(st store.Study) string { return hostinfo.LabelOf(st.HostJSON) }
