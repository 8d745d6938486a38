package cli

import (
	"flag"
	"io"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/monitor"
	"github.com/boxtax/boxtax/internal/study"
)

// everyRunOption sets every flag addRunFlags declares to a value other
// than its default; the test fails when a flag is added without a value
// here, so a new option cannot be left out of the tests of forwardedArgs
// (and so of fleet run).
func everyRunOption(t *testing.T) []string {
	t.Helper()
	values := map[string]string{
		"envs": "native,docker-host", "workloads": "cpu.prime,mem.stream", "reps": "auto", "precision": "3%",
		"max-reps": "12", "warmup": "0", "seed": "42", "monitor-interval": "250ms", "power": "none",
		"settle": "2s", "wire": "host,netns", "wire-rate": "100mbit", "host-label": "pi4-kitchen", "skip-unavailable": "true",
		"budget": "8m", "explain": "true", "disturbed": "steal=5,iowait=20,busy=50",
	}
	var o study.Options
	fs := flag.NewFlagSet("t", flag.ContinueOnError)
	addRunFlags(fs, &o)
	var args []string
	fs.VisitAll(func(f *flag.Flag) {
		v, ok := values[f.Name]
		if !ok {
			t.Errorf("flag --%s has no test value: add one here", f.Name)
		}
		args = append(args, "--"+f.Name+"="+v)
	})
	return args
}

// parseRunOptions reads args as run reads them.
func parseRunOptions(t *testing.T, args []string) (study.Options, *flag.FlagSet) {
	t.Helper()
	o := study.NewOptions()
	fs := flag.NewFlagSet("run", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addRunFlags(fs, &o)
	if err := fs.Parse(args); err != nil {
		t.Fatalf("%v: %v", args, err)
	}
	return o, fs
}

func TestForwardedArgsReadBackTheSame(t *testing.T) {
	tests := []struct {
		name string
		args []string
	}{
		{"no flag", nil},
		{"every flag", everyRunOption(t)},
		{"a count", []string{"--reps", "7", "--settle", "0s", "--monitor-interval", "0s"}},
		{"paper", []string{"--reps", "paper", "--warmup", "2"}},
		{"auto with its defaults", []string{"--reps", "auto"}},
		{"a budget alone", []string{"--budget", "1h30m"}},
		{"defaults given", []string{"--disturbed", "default", "--explain=false", "--envs", ""}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o, fs := parseRunOptions(t, tt.args)
			rendered := forwardedArgs(fs)
			back, _ := parseRunOptions(t, rendered)
			if !reflect.DeepEqual(back, o) {
				t.Errorf("%v rendered as %v reads back as\n%+v, want\n%+v", tt.args, rendered, back, o)
			}
			if tt.args == nil && len(rendered) != 0 {
				t.Errorf("no flag renders as %v", rendered)
			}
		})
	}
	o, _ := parseRunOptions(t, everyRunOption(t))
	want := study.Options{Envs: []string{"native", "docker-host"}, Workloads: []string{"cpu.prime", "mem.stream"},
		Reps: study.Reps{Auto: true, PrecisionPct: 3, Max: 12}, Budget: study.Budget(8 * time.Minute), Explain: true, Warmup: 0, Seed: 42, Settle: 2 * time.Second,
		Monitors: monitor.Options{Interval: 250 * time.Millisecond, Power: "none"}, Wire: []string{"host", "netns"},
		WireRate: "100mbit", HostLabel: "pi4-kitchen", SkipUnavailable: true,
		Disturb: &monitor.DisturbLimits{StealPct: 5, IOWaitPct: 20, BusyBeforePct: 50}}
	if !reflect.DeepEqual(o, want) {
		t.Errorf("every flag reads as\n%+v, want\n%+v", o, want)
	}
}

func TestCheckRunOptions(t *testing.T) {
	tests := []struct {
		args   []string
		resume bool
		want   string // "" : accepted
	}{
		{[]string{"--reps", "auto", "--precision", "3"}, false, ""},
		{[]string{"--precision", "2%"}, false, "--precision and --max-reps go with --reps auto"},
		{[]string{"--max-reps", "9"}, false, "--precision and --max-reps go with --reps auto"},
		{[]string{"--reps", "auto", "--max-reps", "1"}, false, "--max-reps must be 2 to 1000, not 1"},
		{[]string{"--budget", "8m", "--precision", "5%", "--max-reps", "40"}, false, ""},
		{[]string{"--budget", "8m", "--reps", "3"}, false, "--budget adds rounds until every cell is decided: give --reps auto or no --reps, not --reps 3"},
		{[]string{"--budget", "8m", "--reps", "paper"}, false, "not --reps paper"},
		{[]string{"--budget", "8m", "--max-reps", "1"}, false, "--max-reps must be 2 to 1000, not 1"},
		{[]string{"--budget", "8m"}, true, "--resume continues a stored study as planned"},
		{[]string{"--explain"}, true, "--resume continues a stored study as planned"},
		{[]string{"--warmup", "-2"}, false, "--warmup must be 0 or more, not -2"},
		{[]string{"--settle", "-1s"}, false, "--settle must be 0 or more"},
		{[]string{"--monitor-interval", "-1s"}, false, "--monitor-interval must be 0 or more"},
		{[]string{"--host-label", "a b/c"}, false, "--host-label:"},
		{[]string{"--envs", "native"}, true, "--resume continues a stored study as planned"},
		{[]string{"--settle", "0s", "--power", "none"}, true, ""},
		{nil, true, ""},
	}
	for _, tt := range tests {
		o, fs := parseRunOptions(t, tt.args)
		o.Resume = tt.resume
		err := checkRunOptions(o, fs)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%v: %v", tt.args, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%v: error %v, want %q", tt.args, err, tt.want)
		}
	}
}
