package cli

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// colourStudy stores a study where docker-bridge costs memory bandwidth
// (10 % less, beyond noise) and makes no difference to cpu.prime.
func colourStudy(t *testing.T, path string) {
	t.Helper()
	st := &store.Study{Name: "colours", Seed: 1, HostJSON: epyc,
		SpecYAML: "name: colours\nenvs: [native, docker-bridge]\nworkloads: [cpu.prime, mem.stream]\n"}
	var runs []store.Run
	for rep := range 4 {
		for _, env := range []string{"native", "docker-bridge"} {
			for _, wl := range []string{"cpu.prime", "mem.stream"} {
				runs = append(runs, store.Run{Seq: len(runs), CellKey: wl + "|env=" + env, Workload: wl, Env: env, Rep: rep,
					Levels: map[string]string{"env": env}, Params: map[string]any{}})
			}
		}
	}
	testenv.FinishedStudy(t, path, st, runs, func(r *store.Run) []store.Sample {
		r.Started, r.Ended = time.Unix(1_800_000_000+int64(r.Seq), 0), time.Unix(1_800_000_000+int64(r.Seq), 5e8)
		noise := []float64{-1, 1, -0.5, 0.5}[r.Rep]
		if r.Workload == "cpu.prime" { // the same in both: no difference
			return []store.Sample{{RunID: r.ID, Metric: "events_per_s", Value: 4000 + 40*noise, Unit: "events/s"}}
		}
		v := 20000.0
		if r.Env == "docker-bridge" {
			v = 18000
		}
		var samples []store.Sample
		for _, m := range []string{"copy_MBps", "scale_MBps", "add_MBps", "triad_MBps"} {
			samples = append(samples, store.Sample{RunID: r.ID, Metric: m, Value: v + 10*noise, Unit: "MB/s"})
		}
		return samples
	})
}

// reportAs runs boxtax report with stdout a terminal or not, and NO_COLOR.
func reportAs(t *testing.T, dir string, terminal bool, noColor string) string {
	t.Helper()
	var out, errb bytes.Buffer
	g := &Globals{Stdout: &out, Stderr: &errb, Version: "test", Executable: boxtaxBin,
		Getenv: func(k string) string {
			switch k {
			case "NO_COLOR":
				return noColor
			case "TERM":
				return "xterm"
			}
			return os.Getenv(k)
		},
		IsTerminal: func(io.Writer) bool { return terminal }}
	if code := Execute(context.Background(), g, []string{"report", "--db", filepath.Join(dir, "c.db")}); code != ExitOK {
		t.Fatalf("report: exit %d: %s", code, errb.String())
	}
	return out.String()
}

// TestTableColoursCostsOnATerminal is issue 27 item 8: on a terminal the
// text table shows costs red and "no difference" green, with the columns
// still aligned; with NO_COLOR set, or not on a terminal, it is plain.
func TestTableColoursCostsOnATerminal(t *testing.T) {
	dir := t.TempDir()
	colourStudy(t, filepath.Join(dir, "c.db"))
	const red, green = "\x1b[31m", "\x1b[32m"
	coloured := reportAs(t, dir, true, "")
	// row is the table's row of metric: the verdict above the table
	// names the same metrics.
	row := func(text, metric string) string {
		lines := strings.Split(text, "\n")
		for i, l := range lines {
			if strings.HasPrefix(l, "workload") {
				lines = lines[i:]
				break
			}
		}
		for _, l := range lines {
			if strings.Contains(l, metric) {
				return l
			}
		}
		t.Fatalf("no %s row:\n%s", metric, text)
		return ""
	}
	if r := row(coloured, "triad"); !strings.Contains(r, red) || strings.Contains(r, green) {
		t.Errorf("the memory cost is not red: %q", r)
	}
	if r := row(coloured, "events"); !strings.Contains(r, green) || strings.Contains(r, red) {
		t.Errorf("no difference is not green: %q", r)
	}
	if strings.Contains(coloured, "\uF8F0") || strings.Contains(coloured, `\x1b`) {
		t.Errorf("marks left, or colours escaped:\n%q", coloured)
	}
	// Aligned: each environment's column starts where its heading does.
	plain := regexp.MustCompile("\x1b\\[[0-9]*m").ReplaceAllString(coloured, "")
	head := row(plain, "metric ")
	col := strings.Index(head, "docker-bridge")
	for _, metric := range []string{"triad", "events"} {
		r := row(plain, metric)
		if len(r) <= col || r[col-1] != ' ' || r[col] == ' ' {
			t.Errorf("%s row not aligned with the heading at column %d:\n%s\n%s", metric, col, head, r)
		}
	}
	for name, text := range map[string]string{"NO_COLOR": reportAs(t, dir, true, "1"), "not a terminal": reportAs(t, dir, false, "")} {
		if strings.Contains(text, "\x1b[") || strings.ContainsRune(text, '\uF8F0') {
			t.Errorf("%s: coloured:\n%q", name, text)
		}
	}
}
