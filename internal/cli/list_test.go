package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
	"github.com/boxtax/boxtax/internal/workload"
)

func TestListFormatJSON(t *testing.T) {
	dir := t.TempDir()
	db := filepath.Join(dir, "s.db")
	testenv.CreateStudy(t, db, &store.Study{Name: "stored-one", SpecYAML: "name: stored-one\n"}, nil)

	res := runIn(t, dir, "list", "workloads", "--format", "json")
	var infos []workload.Info
	if err := json.Unmarshal([]byte(res.stdout), &infos); err != nil || res.code != ExitOK {
		t.Fatalf("exit %d, %v:\n%s", res.code, err, res.stdout)
	}
	if len(infos) != len(workload.All()) {
		t.Errorf("%d workloads, want %d", len(infos), len(workload.All()))
	}
	for _, i := range infos {
		if i.Name == "cpu.prime" && (i.Summary == "" || i.SeedTool != "sysbench cpu" || len(i.Params) == 0 || len(i.Metrics) == 0 || i.Params[0].Description == "") {
			t.Errorf("cpu.prime lacks fields: %+v", i)
		}
	}

	dockerOnly(t) // unavailable rows with reasons, and no Podman service started (most of the test's 26 s at load 24)
	res = runIn(t, dir, "list", "envs", "--format", "json")
	var envs []envRow
	if err := json.Unmarshal([]byte(res.stdout), &envs); err != nil || res.code != ExitOK {
		t.Fatalf("exit %d, %v:\n%s", res.code, err, res.stdout)
	}
	if len(envs) < 3 || envs[0].Name != "native" || !envs[0].Available || envs[0].Description == "" {
		t.Errorf("envs: %+v", envs)
	}
	for _, e := range envs {
		if !e.Available && e.Reason == "" {
			t.Errorf("%s unavailable without a reason", e.Name)
		}
	}

	res = runIn(t, dir, "list", "studies", "--format", "json", "--db", db)
	var studies []studyRow
	if err := json.Unmarshal([]byte(res.stdout), &studies); err != nil || res.code != ExitOK {
		t.Fatalf("exit %d, %v:\n%s", res.code, err, res.stdout)
	}
	var quick, stored bool
	for _, st := range studies {
		quick = quick || (st.Kind == "preset" && st.Name == "quick" && st.Repetitions > 0 && st.Description != "")
		stored = stored || (st.Kind == "stored" && st.Name == "stored-one" && st.ID > 0 && st.DB == db && st.Status != "" && !st.Created.IsZero())
	}
	if !quick || !stored {
		t.Errorf("quick preset %v, stored study %v:\n%s", quick, stored, res.stdout)
	}

	res = runIn(t, dir, "list", "envs", "--format", "xml")
	if res.code != ExitUsage || !strings.Contains(res.stderr, `"xml"`) || !strings.Contains(res.stderr, "table, json") {
		t.Errorf("bad format: exit %d: %s", res.code, res.stderr)
	}
}

// listOnTerminal runs list as on a terminal of the given width ($COLUMNS).
func listOnTerminal(t *testing.T, columns string, args ...string) (stdout, stderr string) {
	t.Helper()
	res := runWith(t, "", allTerminals, map[string]string{"COLUMNS": columns}, append([]string{"list"}, args...)...)
	if res.code != ExitOK {
		t.Fatalf("%v: exit %d: %s", args, res.code, res.stderr)
	}
	return res.stdout, res.stderr
}

func TestListFitsTheTerminal(t *testing.T) {
	for _, kind := range listKinds {
		for _, cols := range []string{"", "60"} { // "": 80
			t.Run(kind+"/"+cols, func(t *testing.T) {
				width := 80
				if cols != "" {
					width = 60
				}
				if kind == "envs" {
					// Podman's and LXC's environments unavailable, with
					// their reasons, the longest rows there are; and no
					// Podman service started for each table (25 s each
					// here at load 24: 106 s of the test's 107).
					dockerOnly(t)
				}
				out, errOut := listOnTerminal(t, cols, kind)
				lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
				if len(lines) < 3 {
					t.Fatalf("too few lines:\n%s", out)
				}
				for _, l := range lines {
					if n := utf8.RuneCountInString(l); n > width {
						t.Errorf("%d columns, want at most %d: %s", n, width, l)
					}
				}
				if strings.Contains(out, "…") != strings.Contains(errOut, "--format json") {
					t.Errorf("lines cut without saying so, or said without cutting:\n%s\nstderr: %s", out, errOut)
				}
			})
		}
	}
	out, _ := listOnTerminal(t, "", "workloads")
	if strings.Contains(out, "METRICS") || !strings.Contains(out, "cpu.prime") {
		t.Errorf("workloads table:\n%s", out)
	}
	wide, errOut := listOnTerminal(t, "", "workloads", "--wide")
	if !strings.Contains(wide, "METRICS") || !strings.Contains(wide, "events_per_s") || strings.Contains(wide, "…") || errOut != "" {
		t.Errorf("--wide table cut or lacks the metrics:\n%s", wide)
	}
}

func TestListNotOnTerminalKeepsWholeLines(t *testing.T) {
	res := runIn(t, t.TempDir(), "list", "workloads")
	if res.code != ExitOK || strings.Contains(res.stdout, "…") || res.stderr != "" {
		t.Fatalf("exit %d, cut lines or a note:\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	for _, w := range workload.All() {
		if !strings.Contains(res.stdout, w.Info().Summary) {
			t.Errorf("summary of %s not whole", w.Info().Name)
		}
	}
}

func TestBoxtaxDBIsEveryDBFlagsDefault(t *testing.T) {
	dir := t.TempDir()
	fromEnv := filepath.Join(dir, "from-env.db")
	t.Setenv("BOXTAX_DB", fromEnv)
	for _, args := range [][]string{{"report"}, {"analyze"}, {"serve"}, {"compare", "1", "2"}} {
		res := runIn(t, dir, args...)
		if !strings.Contains(res.stderr, "no database at "+fromEnv) {
			t.Errorf("%v does not read $BOXTAX_DB: exit %d: %s", args, res.code, res.stderr)
		}
		res = runIn(t, dir, append(args, "--db", "flag.db")...)
		if !strings.Contains(res.stderr, "no database at flag.db") {
			t.Errorf("%v --db flag.db does not win over $BOXTAX_DB: exit %d: %s", args, res.code, res.stderr)
		}
	}
	// run looks for its database where $BOXTAX_DB says (and, with
	// nothing to resume, makes none: issue 25 item 23).
	if res := runIn(t, dir, "run", "--resume"); !strings.Contains(res.stderr, "nothing to resume: no database at "+fromEnv) {
		t.Fatalf("run --resume: exit %d: %s", res.code, res.stderr)
	}
	testenv.CreateStudy(t, fromEnv, &store.Study{Name: "in-env-db", SpecYAML: "name: in-env-db\n"}, nil)
	if res := runIn(t, dir, "list", "studies"); res.code != ExitOK || !strings.Contains(res.stdout, "STORED IN "+fromEnv) || !strings.Contains(res.stdout, "in-env-db") {
		t.Errorf("list studies does not show $BOXTAX_DB's study: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	for _, c := range []string{"run", "report", "analyze", "serve", "compare", "list"} {
		res := runIn(t, dir, c, "--help")
		if !strings.Contains(res.stdout, "default $BOXTAX_DB, else boxtax.db") {
			t.Errorf("%s --help does not name $BOXTAX_DB:\n%s", c, res.stdout)
		}
	}
}
