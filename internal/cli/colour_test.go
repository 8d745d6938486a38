package cli

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/store"
)

// colourStudy stores a study where docker-bridge costs memory bandwidth
// (10 % less, beyond noise) and makes no difference to cpu.prime.
func colourStudy(t *testing.T, path string) {
	t.Helper()
	st := &store.Study{Name: "colours", Seed: 1, HostJSON: epyc,
		SpecYAML: "name: colours\nenvs: [native, docker-bridge]\nworkloads: [cpu.prime, mem.stream]\n"}
	primeAndStreamStudy(t, path, st, 4, func(r store.Run) (eventsPerS, MBps float64) {
		noise := []float64{-1, 1, -0.5, 0.5}[r.Rep]
		MBps = 20000
		if r.Env == "docker-bridge" {
			MBps = 18000
		}
		return 4000 + 40*noise, MBps + 10*noise // cpu.prime the same in both: no difference
	})
}

// reportAs runs boxtax report with stdout a terminal or not, and NO_COLOR.
func reportAs(t *testing.T, dir string, terminal bool, noColor string) string {
	t.Helper()
	on := noTerminal
	if terminal {
		on = allTerminals
	}
	res := runWith(t, "", on, map[string]string{"NO_COLOR": noColor, "TERM": "xterm"}, "report", "--db", filepath.Join(dir, "c.db"))
	if res.code != ExitOK {
		t.Fatalf("report: exit %d: %s", res.code, res.stderr)
	}
	return res.stdout
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
