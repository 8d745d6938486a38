package cli

import (
	"context"
	"errors"
	"flag"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/study"
	"github.com/boxtax/boxtax/internal/testenv"
)

// runOnlyFlags are the flags of boxtax run that fleet run does not take,
// and why; every other flag of run goes to each device.
var runOnlyFlags = map[string]string{
	"db": "each device's database is the playbook's", "resume": "fleet run --resume resumes every device",
	"host-label": "the playbook labels each device with its inventory name", "skip-unavailable": "the playbook always skips",
	"quiet": "the device's table is not shown", "q": "as --quiet", "max-overhead": "gate the merged database with boxtax report --max-overhead",
	"cmd": "a fleet runs a study file", "metric": "with --cmd", "file": "with --cmd", "setup": "with --cmd",
	"parse": "with --cmd", "cmd-timeout": "with --cmd", "image": "with --cmd", "prepare": "with --cmd", "param": "with --cmd",
	"fail-undecided": "with --max-overhead: gate the merged database with boxtax report",
}

// fleetTestValues give every forwarded flag a value other than its default.
var fleetTestValues = map[string]string{
	"envs": "native,docker-host", "workloads": "cpu.prime,mem.stream", "reps": "auto", "precision": "3",
	"max-reps": "12", "budget": "7m", "explain": "true", "warmup": "0", "seed": "42", "monitor-interval": "250ms", "power": "none",
	"settle": "2s", "wire": "host,netns", "wire-rate": "100mbit", "disturbed": "steal=5,iowait=20,busy=50",
}

// TestFleetRunForwardsEveryRunOption: fleet run takes every option of run
// but those the playbook sets, and the argv it hands each device reads
// back, with run's own flags, as the same options (issue 26: fleet run
// declared run's flags a second time, refused --reps auto and had no
// --precision, --max-reps, --wire or --power).
func TestFleetRunForwardsEveryRunOption(t *testing.T) {
	var runFlags, fleetFlags *flag.FlagSet
	for _, c := range commandFlagSets(context.Background(), &Globals{Getenv: os.Getenv}) {
		switch strings.Join(c.Words, " ") {
		case "run":
			runFlags = c.Flags
		case "fleet run":
			fleetFlags = c.Flags
		}
	}
	if runFlags == nil || fleetFlags == nil {
		t.Fatal("no flags for run or fleet run")
	}
	args := []string{"quick", "-i", "pi1,pi2"}
	runFlags.VisitAll(func(f *flag.Flag) {
		if _, skip := runOnlyFlags[f.Name]; skip {
			return
		}
		v, ok := fleetTestValues[f.Name]
		if !ok {
			t.Errorf("run's --%s has no test value here: add one, or say in runOnlyFlags why a fleet does not take it", f.Name)
			return
		}
		if fleetFlags.Lookup(f.Name) == nil {
			t.Errorf("fleet run does not take run's --%s", f.Name)
		}
		args = append(args, "--"+f.Name+"="+v) // one word: a bool flag takes no separate value
	})
	g := &Globals{Stdout: io.Discard, Stderr: io.Discard, Getenv: os.Getenv}
	o, err := fleetRunOptions(g, args)
	if err != nil {
		t.Fatalf("fleet run %v: %v", args, err)
	}
	// What each device's boxtax run reads from the forwarded argv.
	got := study.NewOptions()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	addRunFlags(fs, &got)
	if err := fs.Parse(o.RunArgs); err != nil {
		t.Fatalf("run cannot read the forwarded %v: %v", o.RunArgs, err)
	}
	got.Study = o.Study
	if !reflect.DeepEqual(got, o.Run) {
		t.Errorf("forwarded %v reads as\n%+v, fleet run was given\n%+v", o.RunArgs, got, o.Run)
	}
	for name, v := range fleetTestValues {
		if !slices.Contains(o.RunArgs, "--"+name) {
			t.Errorf("--%s %s is not forwarded: %v", name, v, o.RunArgs)
		}
	}
	if !got.Reps.Auto || got.Reps.PrecisionPct != 3 || got.Reps.Max != 12 {
		t.Errorf("--reps auto --precision 3 --max-reps 12 reaches the device as %+v", got.Reps)
	}
}

func TestFleetRunRefusesWhatThePlaybookSets(t *testing.T) {
	g := &Globals{Stdout: io.Discard, Stderr: io.Discard, Getenv: os.Getenv}
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"-i", "pi1", "--host-label", "x"}, "--host-label and --skip-unavailable are the playbook's"},
		{[]string{"-i", "pi1", "--skip-unavailable"}, "--host-label and --skip-unavailable are the playbook's"},
		{[]string{"-i", "pi1", "--resume", "--reps", "auto"}, "--resume continues each device's stored study as planned"},
		{[]string{"-i", "pi1", "--precision", "3"}, "--precision and --max-reps go with --reps auto"},
		{[]string{"-i", "pi1", "--warmup", "-1"}, "--warmup must be 0 or more"},
	} {
		_, err := fleetRunOptions(g, tt.args)
		var u usageError
		if err == nil || !strings.Contains(err.Error(), tt.want) || !errors.As(err, &u) {
			t.Errorf("%v: %v, want a usage error %q", tt.args, err, tt.want)
		}
	}
}

// TestFleetRunRefusesABadInventory is issue 42 items 16 and 20: a missing
// inventory file is bad input (exit 2) named in the message, and one
// Ansible cannot parse, or that names no device, is too, with what Ansible
// said about it instead of an empty device table and "(reasons above)".
func TestFleetRunRefusesABadInventory(t *testing.T) {
	dir := t.TempDir()
	testenv.WriteFile(t, filepath.Join(dir, "bad.ini"), []byte("[devices\npi3 ansible_host=127.0.0.1 = = \"\n"), 0o644)
	testenv.WriteFile(t, filepath.Join(dir, "empty.ini"), []byte("# no devices yet\n"), 0o644)
	if err := os.Mkdir(filepath.Join(dir, "dist"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Run("missing", func(t *testing.T) {
		res := runExits(t, dir, ExitUsage, []string{"fleet", "run", "-i", "none.ini"}, "inventory none.ini: no such file", "host names separated by commas")
		textLacks(t, res.stderr, "reasons above")
	})
	testenv.RequireTool(t, "ansible-playbook", "ansible-core")
	t.Setenv("ANSIBLE_LOCAL_TEMP", filepath.Join(dir, "ansible-local"))
	t.Setenv("ANSIBLE_NOCOLOR", "1")
	for _, tt := range []struct {
		name, inventory string
		want            []string
	}{
		{"unparsable", "bad.ini", []string{"inventory bad.ini: Ansible cannot parse it", "with ini plugin", "ansible-inventory -i bad.ini --graph"}},
		{"no device", "empty.ini", []string{"inventory empty.ini: no device", "hosts list is empty"}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := runExits(t, dir, ExitUsage, []string{"fleet", "run", "-i", tt.inventory}, tt.want...)
			textLacks(t, res.stderr, "reasons above")
			textLacks(t, res.stdout, "device")
		})
	}
}

// textLacks reports text that holds unwanted.
func textLacks(t *testing.T, text, unwanted string) {
	t.Helper()
	if strings.Contains(text, unwanted) {
		t.Errorf("%q in:\n%s", unwanted, text)
	}
}
