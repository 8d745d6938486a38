package cli

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestFlagErrorsAreShortAndSuggest is issue 27 item 8: a bad flag is named
// once, with two dashes, with "did you mean" and a one-line usage instead of
// every flag.
func TestFlagErrorsAreShortAndSuggest(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want []string
		once string // said exactly once
	}{
		{[]string{"report", "--fromat", "md"}, []string{"unknown flag --fromat; did you mean --format?", "usage: boxtax report [flags]; boxtax help report for more"}, "--fromat"},
		{[]string{"report", "--max-overhead", "bad"}, []string{`--max-overhead "bad": no limit`, "usage: boxtax report"}, "no limit"},
		{[]string{"run", "--reps"}, []string{"--reps needs a value", "usage: boxtax run"}, "--reps"},
		{[]string{"report", "--paired=maybe"}, []string{`--paired "maybe"`}, "maybe"},
		{[]string{"list", "--wdie", "workloads"}, []string{"did you mean --wide?"}, "--wdie"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			res := runExits(t, dir, ExitUsage, tt.args, tt.want...)
			if n := strings.Count(res.stderr, tt.once); n != 1 {
				t.Errorf("stderr says %q %d times, want once:\n%s", tt.once, n, res.stderr)
			}
			for _, bad := range []string{"Flags:", "flag provided but not defined", " for flag -"} {
				if strings.Contains(res.stderr, bad) {
					t.Errorf("stderr says %q:\n%s", bad, res.stderr)
				}
			}
			if lines := strings.Count(res.stderr, "\n"); lines > 3 {
				t.Errorf("stderr has %d lines, want a short message:\n%s", lines, res.stderr)
			}
		})
	}
}

// TestUnknownNamesSuggestTheNearest is issue 27 item 8: mistyped commands,
// workloads, environments and presets answer with the nearest valid name.
func TestUnknownNamesSuggestTheNearest(t *testing.T) {
	dir := t.TempDir()
	for _, tt := range []struct {
		args []string
		want string
	}{
		{[]string{"rnu"}, `did you mean "run"?`},
		{[]string{"help", "reprot"}, `did you mean "report"?`},
		{[]string{"list", "workloads", "cpu.prim"}, `did you mean "cpu.prime"?`},
		{[]string{"list", "workfloads"}, `did you mean "workloads"?`},
		{[]string{"report", "--db", filepath.Join(dir, "x.db"), "--format", "mardown"}, `did you mean "markdown"?`},
		{[]string{"run", "--db", filepath.Join(dir, "x.db"), "--workloads", "cpu.prim", "--envs", "native"}, `did you mean "cpu.prime"?`},
		{[]string{"run", "--db", filepath.Join(dir, "x.db"), "--workloads", "cpu.prime", "--envs", "dokcer-bridge"}, `did you mean "docker-bridge"?`},
		{[]string{"run", "--db", filepath.Join(dir, "x.db"), "quik"}, `did you mean "quick"?`},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			runExits(t, dir, ExitUsage, tt.args, tt.want)
		})
	}
}

// TestListOneWorkload is issue 27 item 8: list workloads NAME shows that
// workload, its parameters and metrics.
func TestListOneWorkload(t *testing.T) {
	dir := t.TempDir()
	res := runOK(t, dir, "list", "workloads", "cpu.prime")
	stdoutSays(t, res, "cpu.prime: ", "seed tool: sysbench cpu", "PARAMETER", "METRIC", "events_per_s")
	if strings.Contains(res.stdout, "mem.stream") {
		t.Errorf("shows other workloads:\n%s", res.stdout)
	}
	res = runOK(t, dir, "list", "workloads", "cpu.prime", "--format", "json")
	var info struct {
		Name    string
		Metrics []struct{ Name string }
	}
	if err := json.Unmarshal([]byte(res.stdout), &info); err != nil || info.Name != "cpu.prime" || len(info.Metrics) == 0 {
		t.Errorf("json: %v %+v\n%s", err, info, res.stdout)
	}
}

// TestListOptionsJSONHasLists is issue 27 item 8: values and environments
// are JSON lists, not comma- or bar-joined strings.
func TestListOptionsJSONHasLists(t *testing.T) {
	res := runOK(t, t.TempDir(), "list", "options", "--format", "json")
	var rows []struct {
		Key        string
		Values     []string
		ValuesText string `json:"values_text"`
		Envs       []string
	}
	if err := json.Unmarshal([]byte(res.stdout), &rows); err != nil {
		t.Fatalf("%v:\n%s", err, res.stdout)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		seen[r.Key] = true
		if len(r.Envs) == 0 {
			t.Errorf("%s: no envs", r.Key)
		}
		for _, e := range r.Envs {
			if strings.ContainsAny(e, ",( ") {
				t.Errorf("%s: env %q is not one name", r.Key, e)
			}
		}
		if len(r.Values) == 0 && r.ValuesText == "" {
			t.Errorf("%s: no values", r.Key)
		}
		if r.Key == "network" && strings.Join(r.Values, " ") != "bridge host none" {
			t.Errorf("network values %q", r.Values)
		}
	}
	if !seen["network"] || !seen["memory"] {
		t.Errorf("options: %v", seen)
	}
}

// TestHelpHidesInternalCommandsAndAligns is issue 27 item 8.
func TestHelpHidesInternalCommandsAndAligns(t *testing.T) {
	res := runOK(t, t.TempDir(), "--help")
	if strings.Contains(res.stdout, "worker") {
		t.Errorf("--help lists the internal worker command:\n%s", res.stdout)
	}
	col := -1
	for _, line := range strings.Split(res.stdout, "\n") {
		m := regexp.MustCompile(`^  ([a-z]+)( +)\S`).FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		if col >= 0 && m[5] != col {
			t.Errorf("summary of %q starts at column %d, others at %d:\n%s", line[m[2]:m[3]], m[5], col, res.stdout)
		}
		col = m[5]
	}
	if col < 0 {
		t.Fatalf("no command lines:\n%s", res.stdout)
	}
	// The worker still works for boxtax itself.
	if res := runIn(t, t.TempDir(), "worker", "--help"); res.code != ExitOK {
		t.Errorf("worker --help: exit %d", res.code)
	}
}

// TestVersionSaysCommitGoAndPlatform is issue 27 item 8.
func TestVersionSaysCommitGoAndPlatform(t *testing.T) {
	res := runOK(t, t.TempDir(), "--version")
	stdoutSays(t, res, "boxtax test\n", "commit:", "go:       go1.", "platform: linux/")
}

// TestCompareOneStudyIDSaysWhatIsMissing is issue 27 item 8: compare with
// one study id is not read as a file name.
func TestCompareOneStudyIDSaysWhatIsMissing(t *testing.T) {
	dir := t.TempDir()
	res := runIn(t, dir, "compare", "--db", "my.db", "1")
	if res.code != ExitUsage {
		t.Errorf("exit %d", res.code)
	}
	stderrSays(t, res, "compare needs at least two studies")
	if strings.Contains(res.stderr, "no database at 1") {
		t.Errorf("reads the id as a file:\n%s", res.stderr)
	}
}

// TestQuietQuietsTheProgressLines is issue 27 item 8: -q and --quiet leave
// out the progress lines as well as the table.
func TestQuietQuietsTheProgressLines(t *testing.T) {
	dir := t.TempDir()
	args := []string{"run", "--cmd", "true", "--envs", "native", "--reps", "2", "--warmup", "0", "--settle", "0", "--monitor-interval", "0"}
	loud := runOK(t, dir, append(args, "--db", filepath.Join(dir, "loud.db"))...)
	stderrSays(t, loud, "runs to do")
	stdoutSays(t, loud, "workload")
	for _, q := range []string{"-q", "--quiet"} {
		res := runOK(t, dir, append(args, q, "--db", filepath.Join(dir, q+".db"))...)
		if strings.Contains(res.stderr, "runs to do") || strings.Contains(res.stderr, "runs done") {
			t.Errorf("%s: progress lines:\n%s", q, res.stderr)
		}
		if strings.Contains(res.stdout, "workload") {
			t.Errorf("%s: the table:\n%s", q, res.stdout)
		}
	}
}

// TestHelpRunGroupsTheCmdFlagsAndShowsExamples is issue 27 item 8.
func TestHelpRunGroupsTheCmdFlagsAndShowsExamples(t *testing.T) {
	res := runOK(t, t.TempDir(), "help", "run")
	out := res.stdout
	group := strings.Index(out, "\nYour own program (--cmd")
	examples := strings.Index(out, "\nExamples:\n")
	if group < 0 || examples < group {
		t.Fatalf("no --cmd group before the examples:\n%s", out)
	}
	for _, f := range []string{"  --cmd ", "  --metric ", "  --file ", "  --setup ", "  --parse ", "  --image ", "  --cmd-timeout "} {
		if i := strings.Index(out, f); i < group || i > examples {
			t.Errorf("%s is not in the --cmd group", strings.TrimSpace(f))
		}
	}
	for _, f := range []string{"  --db ", "  --envs ", "  --reps "} {
		if i := strings.Index(out, f); i < 0 || i > group {
			t.Errorf("%s is not among the other flags", strings.TrimSpace(f))
		}
	}
	if !strings.Contains(out[examples:], "boxtax run --cmd ") {
		t.Errorf("no --cmd example:\n%s", out[examples:])
	}
}
