package cli

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// deviceDB writes a database with one finished study of device label.
func deviceDB(t *testing.T, path, label string) {
	t.Helper()
	st := &store.Study{Name: "quick", SpecYAML: "name: quick\nenvs: [native]\nworkloads: [cpu.prime]\n", Seed: 1,
		HostJSON: fmt.Sprintf(`{"hostname":"raspberrypi","device":%q}`, label)}
	runs := []store.Run{}
	for i := range 3 {
		runs = append(runs, store.Run{Seq: i, CellKey: "cpu.prime|env=native", Workload: "cpu.prime", Env: "native", Levels: map[string]string{"env": "native"}, Params: map[string]any{}, Rep: i})
	}
	testenv.FinishedStudy(t, path, st, runs, func(r *store.Run) []store.Sample {
		return []store.Sample{{Metric: "events_per_s", Value: float64(100 + r.Rep), Unit: "events/s"}}
	})
}

func studyCount(t *testing.T, path string) int {
	t.Helper()
	s, err := store.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	sts, err := s.Studies(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return len(sts)
}

// TestTwoMergeProcessesAtOnce: two boxtax processes merging overlapping
// inputs into one file at the same time add every study exactly once.
func TestTwoMergeProcessesAtOnce(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{"pi3", "pi4", "pi5"} {
		deviceDB(t, filepath.Join(dir, d+".db"), d)
	}
	for round := range 3 {
		out := filepath.Join(dir, fmt.Sprintf("fleet%d.db", round))
		var cmds []*exec.Cmd
		var outs []*bytes.Buffer
		for _, inputs := range [][]string{{"pi3.db", "pi4.db"}, {"pi4.db", "pi5.db", "pi3.db"}} {
			cmd := exec.Command(boxtaxBin, append([]string{"merge", out}, inputs...)...)
			cmd.Dir = dir
			var b bytes.Buffer
			cmd.Stdout, cmd.Stderr = &b, &b
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			cmds, outs = append(cmds, cmd), append(outs, &b)
		}
		for i, cmd := range cmds {
			if err := cmd.Wait(); err != nil {
				t.Errorf("merge %d: %v\n%s", i, err, outs[i])
			}
		}
		if n := studyCount(t, out); n != 3 {
			t.Errorf("round %d: %d studies, want 3\n%s\n%s", round, n, outs[0], outs[1])
		}
		if added := strings.Count(outs[0].String()+outs[1].String(), ": added study"); added != 3 {
			t.Errorf("round %d: %d studies reported added, want 3", round, added)
		}
	}
}

func TestMergeRefusesAndKeepsTheRest(t *testing.T) {
	dir := t.TempDir()
	deviceDB(t, filepath.Join(dir, "pi3.db"), "pi3")
	deviceDB(t, filepath.Join(dir, "pi4.db"), "pi4")
	testenv.WriteFile(t, filepath.Join(dir, "notes.db"), []byte("not a database at all, just notes\n"), 0o644)
	foreign := filepath.Join(dir, "foreign.db")
	raw, err := sql.Open("sqlite", foreign)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`CREATE TABLE readings (t INTEGER, v REAL)`); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	before, _ := os.ReadFile(foreign)

	res := runIn(t, dir, "merge", "fleet.db", "pi3.db", "notes.db", "pi4.db", "foreign.db")
	if res.code != ExitError {
		t.Errorf("exit %d, want %d", res.code, ExitError)
	}
	stderrSays(t, res, "notes.db: not merged", "not a boxtax database", "foreign.db: not merged", "2 of 4 inputs not merged", `added study 1 "quick" (finished, host pi4)`)
	if n := studyCount(t, filepath.Join(dir, "fleet.db")); n != 2 {
		t.Errorf("fleet.db has %d studies, want the 2 good ones", n)
	}
	// Never into a file that is not a boxtax database.
	res = runIn(t, dir, "merge", "foreign.db", "pi3.db")
	if res.code != ExitUsage || !strings.Contains(res.stderr, "will not merge into foreign.db") {
		t.Errorf("merge into a foreign file: exit %d\n%s", res.code, res.stderr)
	}
	if after, _ := os.ReadFile(foreign); !bytes.Equal(before, after) {
		t.Error("the foreign file was changed")
	}
	if res := runIn(t, dir, "merge", "fleet.db"); res.code != ExitUsage {
		t.Errorf("merge without inputs: exit %d", res.code)
	}
}

// TestReportByHostAndServeMany: a merged database answers report --by host
// in every format, and serve's source numbers the studies of two files apart.
func TestReportByHostAndServeMany(t *testing.T) {
	dir := t.TempDir()
	deviceDB(t, filepath.Join(dir, "pi3.db"), "pi3")
	deviceDB(t, filepath.Join(dir, "pi4.db"), "pi4")
	if res := runIn(t, dir, "merge", "fleet.db", "pi3.db", "pi4.db"); res.code != ExitOK {
		t.Fatalf("merge: %d %s", res.code, res.stderr)
	}
	for _, tc := range []struct{ format, want string }{
		{"table", "[pi3]"}, {"markdown", "| pi3 native"}, {"csv", "study_id,host,run_id"}, {"json", `"schema": "boxtax.devices/v1"`}, {"html", "<table>"},
	} {
		t.Run(tc.format, func(t *testing.T) {
			res := runIn(t, dir, "report", "--db", "fleet.db", "--by", "host", "--format", tc.format)
			if res.code != ExitOK || !strings.Contains(res.stdout, tc.want) || !strings.Contains(res.stdout, "pi4") {
				t.Errorf("exit %d, want %q and pi4 in:\n%.600s\n%s", res.code, tc.want, res.stdout, res.stderr)
			}
		})
	}
	if res := runIn(t, dir, "report", "--db", "fleet.db", "--by", "kernel"); res.code != ExitUsage {
		t.Errorf("--by kernel: exit %d", res.code)
	}
	ctx := context.Background()
	dbs, err := openServed(ctx, []string{filepath.Join(dir, "pi3.db"), filepath.Join(dir, "pi4.db")}, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	defer dbs.Close()
	src := &manySource{dbs: dbs.dbs}
	sts, err := src.Studies(ctx)
	if err != nil || len(sts) != 2 || sts[0].ID != 1 || sts[1].ID != manyStride+1 || !strings.Contains(sts[1].Name, "pi4") {
		t.Fatalf("studies of two files: %+v %v", sts, err)
	}
	st, err := src.Open(ctx, sts[1].ID)
	if err != nil {
		t.Fatalf("the second file's study: %v", err)
	}
	if rep := report.FromStudy(st, false); rep.Study.ID != sts[1].ID || !strings.Contains(string(rep.Study.Host), "pi4") {
		t.Errorf("report of the second file's study: %+v", rep.Study)
	}
	if _, err := src.Open(ctx, 5*manyStride+1); err == nil {
		t.Error("a study of no file was found")
	}
}
