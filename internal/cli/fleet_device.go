package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/boxtax/boxtax/internal/fleet"
)

// fleetIdleCmd is `boxtax fleet idle --db DB`, which the fleet playbook
// runs on a device before it starts a study there: it fails when a study
// already runs into DB (a fleet run interrupted before, or another
// machine's), so that two studies never measure at once on one device.
func fleetIdleCmd(ctx context.Context, g *Globals, args []string) error {
	db, err := fleetDeviceDB(g, "fleet idle", "--db DB\n\nFails when a study runs into DB on this machine (the fleet playbook's check before it starts one). See docs/fleet.md.", args)
	if err != nil {
		return err
	}
	return fleet.CheckIdle(db)
}

// fleetStopCmd is `boxtax fleet stop --db DB`, which fleet run has the
// playbook run on every device when it is stopped (Ctrl-C): it stops the
// study running into DB there as Ctrl-C would, and waits for it to end.
func fleetStopCmd(ctx context.Context, g *Globals, args []string) error {
	db, err := fleetDeviceDB(g, "fleet stop", "--db DB\n\nStops the study running into DB on this machine as Ctrl-C would (it removes what it\nstarted and keeps its finished runs, to resume). Fleet run has every device do it when\nit is stopped. See docs/fleet.md.", args)
	if err != nil {
		return err
	}
	said, err := fleet.Stop(db, time.Minute)
	if err != nil {
		return err
	}
	fmt.Fprintln(g.Stdout, said)
	return nil
}

// fleetDeviceDB reads the --db of a fleet verb run on a device.
func fleetDeviceDB(g *Globals, name, help string, args []string) (string, error) {
	var db string
	fs := newFlags(g, name, help)
	fs.StringVar(&db, "db", "", "the device's database")
	pos, err := parse(fs, args)
	if err != nil {
		return "", err
	}
	if db == "" || len(pos) != 0 {
		return "", usagef("boxtax %s --db DB: name the device's database, and nothing else", name)
	}
	return db, nil
}
