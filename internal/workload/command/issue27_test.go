package command

import (
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/workload"
	"github.com/boxtax/boxtax/internal/workload/workloadtest"
)

// TestYourMetricReplacesTheAdapters runs the real sysbench with a figure
// of the user's named as one of the adapter's (issue 27: it was refused
// as "named twice"): the user's regex is what is stored, once, with a
// note saying so.
func TestYourMetricReplacesTheAdapters(t *testing.T) {
	requireTool(t, "sysbench", "sysbench")
	// the user's regex reads the total time, which the adapter never
	// calls events_per_s: the value tells whose figure was stored
	rec, err := run(t, workload.Params{"cmd": "sysbench cpu --time=1 run", "metrics": []any{`events/s=total time:\s*([0-9.]+)s`}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(rec.Samples["events_per_s"]); n != 1 {
		t.Fatalf("events_per_s sampled %d times, want once: %v", n, rec)
	}
	if v := rec.One(t, "events_per_s"); v < 0.9 || v > 2 {
		t.Errorf("events_per_s = %v: not the user's regex (total time, about 1 s) but the adapter's rate", v)
	}
	if rec.One(t, "lat_avg_ms") <= 0 {
		t.Errorf("the adapter's other figures went too: %v", rec)
	}
	if !strings.Contains(rec.Notes["metric_replaced"], "events_per_s is yours") {
		t.Errorf("no note says the figure is the user's: %v", rec.Notes)
	}
	// a figure named twice by the user is still an error
	_, _, err = workload.Prepare(Cmd, workload.Params{"cmd": "true", "metrics": []any{"a=([0-9]+)", "a=x([0-9]+)"}})
	workloadtest.CheckErr(t, err, "a is named twice")
}

func TestSubstitute(t *testing.T) {
	values := map[string]string{"threads": "4", "n": "10"}
	for _, tc := range []struct {
		argv []string
		want []string
		err  string
	}{
		{[]string{"sysbench", "--threads={threads}", "{n}"}, []string{"sysbench", "--threads=4", "10"}, ""},
		{[]string{"awk", "{print $1}", "find", "{}", "{n}{n}"}, []string{"awk", "{print $1}", "find", "{}", "1010"}, ""},
		{[]string{"x", "{thread}"}, nil, "{thread} names no parameter; known parameters: n, threads"},
	} {
		got, err := Substitute(tc.argv, values, "cmd")
		if tc.err != "" {
			workloadtest.CheckErr(t, err, tc.err)
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Substitute(%q) = %q, %v; want %q", tc.argv, got, err, tc.want)
		}
	}
	if _, err := Substitute([]string{"{a}"}, nil, "setup"); err == nil || !strings.Contains(err.Error(), "parameter setup: {a} names no parameter; known parameters: none") {
		t.Errorf("no values: %v", err)
	}
}

// TestPlaceholdersAreStoredSubstituted: Normalize (the controller's,
// stored with the run) replaces {NAME} in cmd, setup and prepare and then
// finds the program; an unknown name is refused there.
func TestPlaceholdersAreStoredSubstituted(t *testing.T) {
	p := workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "{prog} -c 'echo {n}'", "prepare": "echo {n}",
		"placeholders": map[string]any{"prog": "sh", "n": 3.0}})
	argv, _ := argvParam(p, "cmd")
	prep, _ := argvParam(p, "prepare")
	if !filepath.IsAbs(argv[0]) || filepath.Base(argv[0]) != "sh" || argv[2] != "echo 3" || prep[1] != "3" {
		t.Errorf("normalized cmd %q, prepare %q", argv, prep)
	}
	_, _, err := workload.Prepare(Cmd, workload.Params{"cmd": "echo {threads}"})
	workloadtest.CheckErr(t, err, "{threads} names no parameter; known parameters: none")
	_, _, err = workload.Prepare(Cmd, workload.Params{"cmd": "echo", "placeholders": map[string]any{"a b": "1"}})
	workloadtest.CheckErr(t, err, `"a b" is not a name`)
	// cmd.server's client keeps its own braces
	if _, _, err := workload.Prepare(Server, workload.Params{"server": "sh -c 'sleep 9' {port}", "client": "echo {addr}"}); err != nil {
		t.Errorf("cmd.server with {addr}: %v", err)
	}
}

// TestPrepareRunsBeforeEachMeasuredRunUntimed: prepare runs in the
// run's directory right before the timed command (which reads what it
// wrote), and its second of sleep is not in the wall time.
func TestPrepareRunsBeforeEachMeasuredRunUntimed(t *testing.T) {
	rec, err := run(t, workload.Params{"cmd": "sh -c 'grep -c . marker'", "setup": "sh -c 'echo setup > marker'",
		"prepare": "sh -c 'sleep 1; echo prepared >> marker'", "metrics": []any{"lines=^([0-9]+)"}})
	if err != nil {
		t.Fatal(err)
	}
	if v := rec.One(t, "lines"); v != 2 {
		t.Errorf("the command saw %v lines, want 2: setup's, then prepare's", v)
	}
	if w := rec.One(t, "wall_s"); w >= 0.9 {
		t.Errorf("wall %v s: prepare's sleep was timed", w)
	}
	// a failing prepare fails the run, named
	_, err = run(t, workload.Params{"cmd": "true", "prepare": "sh -c 'echo no cache >&2; exit 3'"})
	workloadtest.CheckErr(t, err, "the prepare command exited with status 3")
	req := workloadtest.Requirements(t, Cmd, workloadtest.Prepare(t, Cmd, workload.Params{"cmd": "true", "prepare": "sh -c true"}))
	if !strings.Contains(strings.Join(req.HostPrograms, " "), "/sh") {
		t.Errorf("prepare's program is not brought into the image: %v", req.HostPrograms)
	}
}

func TestShort(t *testing.T) {
	long := "sysbench cpu --cpu-max-prime=20000 --threads=4 --time=10 --report-interval=1 run"
	for _, tc := range []struct{ line, want string }{
		{"gzip -c /usr/local/go/bin/go", "gzip -c go"},
		{"/usr/bin/sysbench cpu --time=2 run", "sysbench cpu --time=2 run"},
		{"fio --filename=/tmp/x/data --rw=read", "fio --filename=data --rw=read"},
		{`sh -c "echo hi"`, "sh -c 'echo hi'"},
		{"wrk http://127.0.0.1:8080/a/b", "wrk http://127.0.0.1:8080/a/b"},
		{long, "sysbench cpu --cpu-max-prime=20000 --..."},
	} {
		got := Short(tc.line)
		if got != tc.want || len([]rune(got)) > MaxShort || Short(tc.line) != got {
			t.Errorf("Short(%q) = %q, want %q", tc.line, got, tc.want)
		}
	}
}

// TestAdapterTable: every adapter gets its rows of adapterMetrics, each
// name once, and a row for a tool without an adapter stops the program.
func TestAdapterTable(t *testing.T) {
	for _, name := range AdapterNames() {
		a := adapters[name]
		seen := map[string]bool{}
		for _, m := range a.metrics {
			if seen[m.Name] || m.Unit == "" || m.Label == "" || m.Description == "" {
				t.Errorf("%s: metric %+v repeated or incomplete", name, m)
			}
			seen[m.Name] = true
		}
		if len(a.metrics) == 0 || a.parse == nil || a.debian == "" {
			t.Errorf("adapter %s: %d metrics, parse %v, debian %q", name, len(a.metrics), a.parse != nil, a.debian)
		}
	}
	if got := adapters["ab"].metrics; len(got) != 3 || got[0].Name != "requests_per_s" || !got[0].HigherIsBetter || got[1].HigherIsBetter {
		t.Errorf("ab's metrics in their order: %+v", got)
	}
	var list []adapter
	for _, name := range AdapterNames() {
		a := adapters[name]
		a.metrics = nil
		list = append(list, a)
	}
	if again := adapterTable(list); !reflect.DeepEqual(len(again["sysbench"].metrics), len(adapters["sysbench"].metrics)) {
		t.Errorf("the table made twice differs")
	}
	saved := adapterMetrics
	defer func() {
		adapterMetrics = saved
		if recover() == nil {
			t.Error("a row for a tool without an adapter was taken")
		}
	}()
	adapterMetrics = append(slices.Clone(saved), saved[0])
	adapterMetrics[len(adapterMetrics)-1].tool = "iozone"
	adapterTable(list)
}
