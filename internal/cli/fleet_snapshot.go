package cli

import (
	"context"
	"errors"

	"github.com/boxtax/boxtax/internal/store"
)

// fleetSnapshotCmd is `boxtax fleet snapshot --db DB COPY`, which the
// fleet playbook runs on a device before it fetches the database: COPY is
// one file holding every committed run of DB, also those only in DB's
// write-ahead log when the study's boxtax was killed (kill -9, the OOM
// killer, a watchdog), which fetching DB alone would lose. DB is not
// changed.
func fleetSnapshotCmd(ctx context.Context, g *Globals, args []string) error {
	var db string
	fs := newFlags(g, "fleet snapshot", "--db DB COPY\n\nWrites COPY, one file with every committed run of DB (its write-ahead log included),\nfor the fleet playbook to fetch from a device. DB is not changed. See docs/fleet.md.")
	fs.StringVar(&db, "db", "", "the device's database")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if db == "" || len(pos) != 1 {
		return usagef("boxtax fleet snapshot --db DB COPY: name the database and the one file to copy it to")
	}
	err = store.Snapshot(ctx, db, pos[0])
	if errors.Is(err, store.ErrDestination) {
		return usageError{err}
	}
	return err
}
