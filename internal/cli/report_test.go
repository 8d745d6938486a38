package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
)

// storedStudy writes a finished study of cpu.prime and mem.stream in two
// environments straight into a database, without running anything: speed
// scales every value, so two hosts can be told apart.
func storedStudy(t *testing.T, path, name, host string, speed float64) {
	t.Helper()
	storedStudyWith(t, path, name, host, speed, "")
}

// storedStudyWith is storedStudy with more lines of spec (e.g. paper:).
func storedStudyWith(t *testing.T, path, name, host string, speed float64, moreSpec string) {
	t.Helper()
	st := &store.Study{Name: name, Seed: 1, HostJSON: host,
		SpecYAML: "name: " + name + "\nenvs: [native, docker-bridge]\nworkloads: [cpu.prime, mem.stream]\n" + moreSpec}
	primeAndStreamStudy(t, path, st, 3, func(r store.Run) (eventsPerS, MBps float64) {
		f := speed * (1 + 0.003*float64(r.Seq%3))
		if r.Env == "docker-bridge" {
			f *= 0.95
		}
		return 4000 * f, 20000 * f
	})
}

// primeAndStreamStudy stores st finished: cpu.prime and mem.stream in
// native and docker-bridge, reps rounds of the four cells, a run a second;
// figures gives a run's events/s (cpu.prime) or MB/s (each of mem.stream's
// four kernels).
func primeAndStreamStudy(t *testing.T, path string, st *store.Study, reps int, figures func(r store.Run) (eventsPerS, MBps float64)) {
	t.Helper()
	var runs []store.Run
	for rep := range reps {
		for _, env := range []string{"native", "docker-bridge"} {
			for _, wl := range []string{"cpu.prime", "mem.stream"} {
				runs = append(runs, store.Run{Seq: len(runs), CellKey: wl + "|env=" + env, Workload: wl, Env: env, Rep: rep,
					Levels: map[string]string{"env": env}, Params: map[string]any{}})
			}
		}
	}
	testenv.FinishedStudy(t, path, st, runs, func(r *store.Run) []store.Sample {
		r.Started, r.Ended = time.Unix(1_800_000_000+int64(r.Seq), 0), time.Unix(1_800_000_000+int64(r.Seq), 5e8)
		eventsPerS, MBps := figures(*r)
		if r.Workload == "cpu.prime" {
			return []store.Sample{{RunID: r.ID, Metric: "events_per_s", Value: eventsPerS, Unit: "events/s"}}
		}
		var samples []store.Sample
		for _, m := range []string{"copy_MBps", "scale_MBps", "add_MBps", "triad_MBps"} {
			samples = append(samples, store.Sample{RunID: r.ID, Metric: m, Value: MBps, Unit: "MB/s"})
		}
		return samples
	})
}

const (
	epyc = `{"hostname":"vm","cpus":2,"cpu_model":"AMD EPYC","kernel_release":"6.18.44","docker":{"server_version":"20.10.24","storage_driver":"fuse-overlayfs"}}`
	pi4  = `{"hostname":"pi4","cpus":4,"cpu_model":"Cortex-A72","kernel_release":"6.6.31-v8","docker":{"server_version":"26.1.4","storage_driver":"overlay2"}}`
)

func TestReportFormatsAndPaperFromTheCommandLine(t *testing.T) {
	dir := t.TempDir()
	storedStudy(t, filepath.Join(dir, "boxtax.db"), "<script>alert(1)</script>", epyc, 1)
	tests := []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"html", []string{"report", "--format", "html"}, ExitOK, []string{"<!DOCTYPE html>", `data-kind="bars"`, "&lt;script&gt;alert(1)&lt;/script&gt;", "Table III"}},
		{"latex", []string{"report", "--format", "latex"}, ExitOK, []string{`\toprule`, `\textless{}script\textgreater{}`}},
		{"paper", []string{"report", "--compare-paper"}, ExitOK, []string{"Table III. Memory I/O benchmarking: STREAM", "709.22 (0.29)", "-5.0%*", "no boxtax equivalent", "not measured in this study"}},
		{"paper by name", []string{"report", "--compare-paper=krylovskiy2015", "--format", "markdown"}, ExitOK, []string{"## Table VI. Disk I/O benchmarking: bonnie++"}},
		{"paper unknown", []string{"report", "--compare-paper=morabito"}, ExitUsage, []string{`unknown paper "morabito"`, "krylovskiy2015"}},
		{"format unknown", []string{"report", "--format", "pdf"}, ExitUsage, []string{`unknown report format "pdf"`, "html, json, latex"}},
		{"png without plots", []string{"report", "--png"}, ExitUsage, []string{"--png needs --plots DIR"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := runIn(t, dir, tt.args...)
			if res.code != tt.code {
				t.Fatalf("exit %d, want %d; stderr: %s", res.code, tt.code, res.stderr)
			}
			for _, w := range tt.want {
				if !strings.Contains(res.stdout+res.stderr, w) {
					t.Errorf("output does not say %q:\n%s%s", w, res.stdout, res.stderr)
				}
			}
			if tt.name == "html" && strings.Contains(res.stdout, "<script>") {
				t.Errorf("study name unescaped")
			}
			if tt.name == "paper" && strings.Contains(res.stdout, "over the measured runs") {
				t.Errorf("--compare-paper wrote the report's own table too:\n%s", res.stdout)
			}
		})
	}
}

func TestReportWritesPlotFiles(t *testing.T) {
	dir := t.TempDir()
	storedStudy(t, filepath.Join(dir, "boxtax.db"), "plots", epyc, 1)
	plots := filepath.Join(dir, "plots")
	args := []string{"report", "--plots", plots, "-o", filepath.Join(dir, "r.txt")}
	_, err := exec.LookPath("rsvg-convert")
	png := err == nil
	if png {
		args = append(args, "--png")
	} else {
		testenv.DoWithout(t, "no rsvg-convert: checking SVG files only (Debian: apt-get install librsvg2-bin)")
	}
	res := runOK(t, dir, args...)
	svgs, _ := filepath.Glob(filepath.Join(plots, "*.svg"))
	// The overview, bars and boxes of cpu.prime, bars and boxes of mem.stream.
	if len(svgs) != 5 {
		t.Fatalf("%d SVG files: %v", len(svgs), svgs)
	}
	for _, f := range svgs {
		b, _ := os.ReadFile(f)
		if !strings.HasPrefix(string(b), `<?xml version="1.0" encoding="UTF-8"?>`+"\n<svg") {
			t.Errorf("%s is not a standalone SVG file", f)
		}
	}
	if png {
		pngs, _ := filepath.Glob(filepath.Join(plots, "*.png"))
		if len(pngs) != len(svgs) {
			t.Errorf("%d PNG files for %d SVG files", len(pngs), len(svgs))
		}
	}
	if !strings.Contains(res.stderr, "wrote 5 plots") {
		t.Errorf("stderr: %s", res.stderr)
	}
}

func TestCompareStudiesFromTwoDatabases(t *testing.T) {
	dir := t.TempDir()
	storedStudy(t, filepath.Join(dir, "vm.db"), "quick", epyc, 1)
	storedStudy(t, filepath.Join(dir, "pi.db"), "quick", pi4, 0.25)
	storedStudy(t, filepath.Join(dir, "pi.db"), "again", pi4, 0.26)
	res := runOK(t, dir, "compare", "vm.db", "pi.db:1", "pi.db")
	stdoutSays(t, res,
		`A = vm.db: study 1 "quick"`, "AMD EPYC x2, kernel 6.18.44, Docker 20.10.24 (fuse-overlayfs)",
		`B = pi.db:1: study 1 "quick"`, `C = pi.db: study 2 "again"`, "Cortex-A72 x4, kernel 6.6.31-v8, Docker 26.1.4 (overlay2)",
		"10 shared cells", "-75.0%*", "-5.0%*",
	)
	res = runIn(t, dir, "compare", "vm.db", "pi.db", "--format", "json")
	if res.code != ExitOK || !strings.Contains(res.stdout, `"schema": "boxtax.compare/v1"`) {
		t.Errorf("json: exit %d %s", res.code, res.stdout)
	}
	for _, bad := range [][]string{{"compare", "vm.db"}, {"compare", "vm.db", "pi.db:x"}, {"compare", "vm.db", "nope.db"}, {"compare", "vm.db", "pi.db:9"}} {
		if res := runIn(t, dir, bad...); res.code != ExitUsage {
			t.Errorf("%v: exit %d, want %d; %s", bad, res.code, ExitUsage, res.stderr)
		}
	}
}

func TestParseStudyRef(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "7"), nil, 0o644)
	tests := []struct {
		arg  string
		path string
		id   int64
		bad  bool
	}{
		{"a.db", "a.db", 0, false},
		{"a.db:3", "a.db", 3, false},
		{"dir/x:y.db:2", "dir/x:y.db", 2, false},
		{":4", "main.db", 4, false},
		{"5", "main.db", 5, false},
		{filepath.Join(dir, "7"), filepath.Join(dir, "7"), 0, false},
		{"a.db:", "", 0, true},
		{"a.db:latest", "", 0, true},
	}
	for _, tt := range tests {
		ref, err := parseStudyRef(tt.arg, "main.db")
		if (err != nil) != tt.bad || (!tt.bad && (ref.Path != tt.path || ref.ID != tt.id)) {
			t.Errorf("parseStudyRef(%q) = %+v, %v", tt.arg, ref, err)
		}
	}
}

// TestReportNamesThePapersRepetitionsAndPaper: a study whose spec names its
// paper prints both repetition counts in every format, and --compare-paper
// alone compares with that paper (issue 14 items 2 and 4).
func TestReportNamesThePapersRepetitionsAndPaper(t *testing.T) {
	dir := t.TempDir()
	storedStudyWith(t, filepath.Join(dir, "boxtax.db"), "seed001-memory", epyc, 1, "repetitions: 3\npaper:\n  id: morabito2017\n  repetitions: 20\n")
	for _, tt := range []struct {
		format string
		want   string
	}{
		{"table", "repetitions: 3 per cell; the paper (morabito2017): 20 (fewer than published: --reps paper runs the paper's count)"},
		{"markdown", "repetitions: 3 per cell; the paper (morabito2017): 20"},
		{"html", "repetitions: 3 per cell; the paper (morabito2017): 20"},
		{"json", `"paper": 20`},
	} {
		res := runIn(t, dir, "report", "--format", tt.format)
		if res.code != ExitOK || !strings.Contains(res.stdout, tt.want) {
			t.Errorf("%s: exit %d, want %q in:\n%s", tt.format, res.code, tt.want, res.stdout)
		}
	}
	res := runIn(t, dir, "report", "--compare-paper")
	if res.code != ExitOK || !strings.Contains(res.stdout, "Morabito") || !strings.Contains(res.stdout, "TABLE 2") && !strings.Contains(res.stdout, "Table 2. Power consumption in idle") {
		t.Errorf("--compare-paper did not compare with the study's paper: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
}

// TestReportSaysWhatWasLeftOut is issue 42 item 8: an environment that
// --skip-unavailable left out is said, with why, in the table, markdown
// and the HTML page (it was in the JSON alone), its reason escaped.
func TestReportSaysWhatWasLeftOut(t *testing.T) {
	dir := t.TempDir()
	host := strings.TrimSuffix(epyc, "}") + `,"unavailable_envs":{"podman":"podman not found <b>on PATH</b>","docker-host":"cannot reach Docker"}}`
	storedStudy(t, filepath.Join(dir, "boxtax.db"), "left out", host, 1)
	for _, tt := range []struct {
		format string
		want   []string
	}{
		{"table", []string{"not run here, left out by --skip-unavailable: docker-host (cannot reach Docker); podman (podman not found <b>on PATH</b>)"}},
		{"markdown", []string{"left out by --skip-unavailable: docker-host (cannot reach Docker)"}},
		{"html", []string{"<strong>Left out:</strong> not run here, left out by --skip-unavailable: docker-host (cannot reach Docker); podman (podman not found &lt;b&gt;on PATH&lt;/b&gt;)",
			"<dt>left out: podman</dt><dd>podman not found &lt;b&gt;on PATH&lt;/b&gt;</dd>"}},
	} {
		t.Run(tt.format, func(t *testing.T) {
			res := runOK(t, dir, "report", "--format", tt.format)
			stdoutSays(t, res, tt.want...)
		})
	}
	res := runOK(t, t.TempDir(), "report", "--db", filepath.Join(studyDir(t, "all ran"), "boxtax.db"))
	if strings.Contains(res.stdout, "left out") {
		t.Errorf("a study that left nothing out says something was:\n%s", res.stdout)
	}
}
