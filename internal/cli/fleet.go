package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/boxtax/boxtax/internal/fleet"
	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/termtext"
)

// fleetOptions are the flags of `boxtax fleet run`.
type fleetOptions struct {
	fleet.Options
	Out string        // the merged database
	Run study.Options // run's options, forwarded to every device
}

func fleetCmd(ctx context.Context, g *Globals, args []string) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
		args = []string{"run", "--help"} // fleet's verb for people: its help
	}
	if len(args) > 0 {
		if verb, ok := deviceVerbs[args[0]]; ok {
			return verb(ctx, g, args[1:])
		}
	}
	if len(args) == 0 || args[0] != "run" {
		return usagef("boxtax fleet's verb is run (boxtax fleet run STUDY -i INVENTORY); fleet snapshot, idle and stop --db DB are the playbook's, on a device")
	}
	o, err := fleetRunOptions(g, args[1:])
	if err != nil {
		return err
	}
	o.Terminal = fleet.ForegroundTerminal(os.Stdin) // for Ansible's password prompts
	return runFleet(ctx, g, o)
}

// deviceVerbs are the fleet verbs the playbook runs on a device.
var deviceVerbs = map[string]func(context.Context, *Globals, []string) error{
	"snapshot": fleetSnapshotCmd, "idle": fleetIdleCmd, "stop": fleetStopCmd,
}

// fleetRunOptions reads the flags of fleet run: its own, and run's, which
// go to boxtax run on every device: those given, as run reads them
// (addRunFlags, forwardedArgs).
func fleetRunOptions(g *Globals, args []string) (fleetOptions, error) {
	var ansibleArgs []string
	if i := slices.Index(args, "--"); i >= 0 {
		args, ansibleArgs = args[:i], args[i+1:]
	}
	o := fleetOptions{Run: study.NewOptions()}
	var runArgs string
	fs := newFlags(g, "fleet run", "STUDY -i INVENTORY [flags] [-- ansible-playbook flags]\n\nRuns STUDY (a preset or a YAML file) on every device of the Ansible inventory with\nthe playbook shipped with boxtax (deploy/ansible/study.yml), fetches each device's\ndatabase into --results and merges them into --out. Every flag of boxtax run but\n--db, --host-label and --skip-unavailable (the playbook sets them) goes to each device. See docs/fleet.md.")
	fs.StringVar(&o.Inventory, "i", "", "Ansible inventory: a file, a directory, or host names separated by commas")
	fs.StringVar(&o.Inventory, "inventory", "", "same as -i")
	fs.StringVar(&o.Out, "out", "fleet.db", "merge every device's database into this one")
	fs.StringVar(&o.Results, "results", "results", "fetch each device's database into this directory (HOST.db)")
	fs.StringVar(&o.Dist, "dist", "dist", "directory of the cross-built binaries boxtax-linux-{amd64,arm64,armv7,armv6} (make build-all)")
	fs.StringVar(&o.Limit, "limit", "", "only these devices (Ansible --limit), e.g. to resume one")
	fs.IntVar(&o.Forks, "forks", 0, "devices at once (Ansible --forks; default: every device, up to 50)")
	fs.BoolVar(&o.Resume, "resume", false, "continue the unfinished study in each device's database (after a device dropped mid-study)")
	fs.StringVar(&o.Playbook, "playbook", "", "a playbook of your own instead of the one shipped with boxtax")
	fs.StringVar(&runArgs, "run-args", "", "more flags for boxtax run on every device, e.g. \"--wire netns --power none\"")
	fs.BoolVar(&o.Verbose, "verbose", false, "show Ansible's whole output (every task of every device) instead of a line a device as it moves on; it is kept in RESULTS/"+fleet.LogName+" either way")
	addRunFlags(fs, &o.Run)
	pos, err := parse(fs, args)
	if err != nil {
		return o, err
	}
	if len(pos) > 1 {
		return o, usagef("one study at a time, got %s", strings.Join(pos, " "))
	}
	if len(pos) == 1 {
		o.Study = pos[0]
	}
	if o.Inventory == "" {
		return o, usagef("name the devices: -i INVENTORY (an Ansible inventory; see docs/fleet.md for an example)")
	}
	if o.Run.HostLabel != "" || o.Run.SkipUnavailable {
		return o, usagef("--host-label and --skip-unavailable are the playbook's: each device is labelled with its inventory name and leaves out what it cannot run")
	}
	if o.Resume && (o.Study != "" || len(givenOf(fs, addStudyFlags)) > 0 || runArgs != "") {
		return o, usagef("--resume continues each device's stored study as planned: leave out the study and its flags")
	}
	o.Run.Study = o.Study
	if err := checkRunOptions(o.Run, fs); err != nil {
		return o, usageError{err}
	}
	if !o.Resume && o.Study == "" {
		o.Study = "quick"
	}
	o.RunArgs = append(forwardedArgs(fs), strings.Fields(runArgs)...)
	o.Extra = ansibleArgs
	if o.Forks == 0 {
		o.Forks = 50 // Ansible's default is 5; a study is long, so every device at once
	}
	return o, nil
}

// runFleet runs the playbook, merges what came back and prints a line per
// device. Exit 3 when a device did not finish its study.
func runFleet(ctx context.Context, g *Globals, o fleetOptions) error {
	started := time.Now().Add(-time.Second) // mtimes may be coarser
	defer func() {
		// Only this run's log: an error before Ansible ran leaves the last
		// run's.
		if fi, err := os.Stat(fleet.LogPath(o.Results)); err == nil && fi.ModTime().After(started) {
			fmt.Fprintf(g.Stderr, "the playbook's whole log: %s\n", fleet.LogPath(o.Results))
		}
	}()
	if g.Environ != nil {
		o.Env = g.Environ()
	}
	sum, err := fleet.Run(ctx, o.Options, g.Stderr)
	var badInventory *fleet.InventoryError
	if err == fleet.ErrNoAnsible || errors.As(err, &badInventory) {
		return usageError{err}
	}
	if err != nil {
		return err
	}
	var dbs []string
	for _, d := range sum.Hosts {
		if d.DB != "" {
			dbs = append(dbs, d.DB)
		}
	}
	var mergeErr error
	if len(dbs) > 0 {
		fmt.Fprintf(g.Stderr, "merging %d device databases into %s\n", len(dbs), o.Out)
		mergeErr = mergeDatabases(ctx, g.Stderr, mergeOptions{Out: o.Out, Inputs: dbs})
	}
	writeFleetSummary(g.Stdout, sum)
	if mergeErr != nil {
		return mergeErr
	}
	if len(sum.Hosts) == 0 {
		return fmt.Errorf("the playbook summarised no device: nothing to merge; see what Ansible did in %s", fleet.LogPath(o.Results))
	}
	if len(dbs) == 0 {
		return fmt.Errorf("no device returned a database: nothing to merge (each device's reason is in the table above)")
	}
	bad := 0
	for _, d := range sum.Hosts {
		if d.Status != fleet.StatusOK {
			bad++
		}
	}
	if bad > 0 {
		return exitError{ExitRunsFailed, fmt.Errorf("%d of %d devices did not finish their study cleanly; the others are in %s. Resume one with: boxtax fleet run --resume -i %s --limit HOST", bad, len(sum.Hosts), o.Out, o.Inventory)}
	}
	fmt.Fprintf(g.Stderr, "%d devices; see them side by side: boxtax report --db %s --by host\n", len(sum.Hosts), o.Out)
	return nil
}

// writeFleetSummary prints one line per device: status, database, reason.
func writeFleetSummary(w io.Writer, s *fleet.Summary) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "device\tarch\tstatus\tdatabase\treason")
	for _, d := range s.Hosts {
		reason := d.Reason
		if len(d.Warnings) > 0 {
			for _, w := range d.Warnings {
				w = strings.TrimPrefix(w, "warning: environment ")
				w = strings.Replace(w, " is not available here, its cells are left out (--skip-unavailable):", " unavailable:", 1)
				reason = strings.TrimSpace(reason + "; " + w)
			}
			reason = strings.TrimPrefix(reason, "; ")
		}
		db, arch := d.DB, d.Arch
		if db == "" {
			db = "-"
		}
		if arch == "" {
			arch = "-"
		}
		if reason = termtext.Visible(oneLine(reason)); len(reason) > 200 {
			reason = reason[:197] + "..."
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", d.Host, arch, d.Status, db, reason)
	}
	tw.Flush()
}
