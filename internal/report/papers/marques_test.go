package papers

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/report"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/testenv"
	"go.yaml.in/yaml/v3"
)

// marquesQuotes reads the sentences each seed 004 table was transcribed from.
func marquesQuotes(t *testing.T) (Paper, map[string][]string) {
	t.Helper()
	b, err := paperFiles.ReadFile("marques.yaml")
	if err != nil {
		t.Fatal(err)
	}
	var p Paper
	if err := yaml.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	quotes := map[string][]string{}
	for _, tab := range p.Tables {
		quotes[tab.Table] = tab.Quotes
	}
	return p, quotes
}

// percentIn finds every "x.yz%" in a text.
var percentIn = regexp.MustCompile(`([0-9]+(?:\.[0-9]+)?)%`)

// TestMarquesValuesMatchTheSeedText checks every transcribed value of seed
// 004 against the sentence it comes from, and that no percentage of those
// sentences was left out; where the seed text is at hand, every sentence
// must be in it word for word.
func TestMarquesValuesMatchTheSeedText(t *testing.T) {
	p, quotes := marquesQuotes(t)
	cells := 0
	for _, tab := range p.Tables {
		t.Run(tab.Table, func(t *testing.T) {
			text := strings.Join(quotes[tab.Table], " ")
			if text == "" {
				t.Fatal("no quotes: the source sentences must be transcribed with the values")
			}
			stated := map[string]bool{}
			for _, m := range percentIn.FindAllStringSubmatch(text, -1) {
				stated[m[1]] = true
			}
			used := map[string]bool{}
			for _, byConf := range tab.Values {
				for conf, row := range byConf {
					for i, cell := range row {
						cells++
						num := strings.TrimSuffix(strings.TrimLeft(strings.TrimSpace(cell), "+-"), "%")
						if !strings.HasSuffix(strings.TrimSpace(cell), "%") {
							t.Errorf("%s column %d: %q is not a %% deviation, as every number of seed 004 is", conf, i, cell)
						}
						if !stated[num] {
							t.Errorf("%s column %s: %s%% is not stated in the quoted sentences", conf, tab.Columns[i].Name, num)
						}
						used[num] = true
					}
				}
			}
			for num := range stated {
				if !used[num] {
					t.Errorf("%s%% is stated in the quotes but not transcribed", num)
				}
			}
		})
	}
	if cells != 13 {
		t.Errorf("%d published values, want 13 (2 IOZone, 5 NPB, 4 STREAM, 2 ApacheBench)", cells)
	}
	t.Run("quotes are verbatim", func(t *testing.T) {
		b, err := os.ReadFile(filepath.Join(testenv.SeedsDir(t, "papers"), filepath.Base(p.Source)))
		if err != nil {
			t.Fatal(err)
		}
		text := strings.Join(strings.Fields(string(b)), " ")
		for table, qs := range quotes {
			for _, q := range qs {
				if !strings.Contains(text, strings.Join(strings.Fields(q), " ")) {
					t.Errorf("%s: quote not in %s: %q", table, p.Source, q)
				}
			}
		}
	})
}

// TestComparePaperMarques puts seed 004's numbers beside a study with LXC
// and STREAM at three sizes: the 76.3 MiB cell is the one compared.
func TestComparePaperMarques(t *testing.T) {
	st := store.Study{ID: 4, Name: "seed004-stream", Status: store.StudyFinished, Seed: 1,
		CreatedAt: time.Date(2026, 11, 23, 0, 0, 0, 0, time.UTC), HostJSON: epycHost, SpecYAML: "name: seed004-stream\n"}
	var runs []store.Run
	var samples []store.Sample
	speed := map[string]float64{"25.4": 1.0, "76.3": 2.0, "228.9": 3.0}
	for rep := range 3 {
		for _, env := range []string{"native", "lxc"} {
			for _, size := range []string{"25.4", "76.3", "228.9"} {
				id := int64(len(runs) + 1)
				runs = append(runs, store.Run{ID: id, Seq: len(runs), CellKey: "mem.stream|array_MiB=" + size + "|env=" + env, Workload: "mem.stream",
					Env: env, Levels: map[string]string{"env": env, "array_MiB": size}, Params: map[string]any{"array_MiB": size}, Status: store.RunOK})
				v := 1000 * speed[size] * (1 + 0.001*float64(rep))
				if env == "lxc" {
					v *= 0.99
				}
				samples = append(samples, store.Sample{RunID: id, Metric: "copy_MBps", Value: v, Unit: "MB/s"})
			}
		}
	}
	r := report.Build(st, report.Layout{Baseline: "native", Envs: []string{"native", "lxc"}, Workloads: []string{"mem.stream"}}, runs, samples)
	cmps, err := Compare(r, "marques")
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, c := range cmps {
		for _, row := range c.Rows {
			switch {
			case c.Table == "Fig. 5" && strings.HasPrefix(row.Column, "Copy") && row.Conf == "lxc":
				found = true
				if row.Status != report.PaperMeasured || row.OursMean == nil || *row.OursMean < 1900 || *row.OursMean > 2100 {
					t.Errorf("Copy lxc: status %s, ours %v: want the 76.3 MiB cell (about 1980)", row.Status, row.OursMean)
				}
				if !strings.Contains(row.Boxtax, "array_MiB=76.3") {
					t.Errorf("the compared cell is not named: %q", row.Boxtax)
				}
			case c.Table == "Fig. 3" && row.Conf == "lxc" && strings.HasPrefix(row.Column, "throughput"):
				if row.Status != report.PaperNoEquivalent {
					t.Errorf("IOZone mean of four operations: status %s, want %s", row.Status, report.PaperNoEquivalent)
				}
			case c.Table == "Fig. 6" && row.Conf == "lxc":
				if row.Status != report.PaperNotMeasured {
					t.Errorf("%s: status %s in a STREAM-only study", row.Column, row.Status)
				}
			}
		}
	}
	if !found {
		t.Fatal("no Fig. 5 Copy row for lxc")
	}
}

// TestMarquesMGComparesNothing: the paper's MG EDP (-4.71 %) names no NPB
// class, so a study of npb.mg in class S (or any) is not compared with it
// (issue 29 item 2: the first npb.mg cell, class S, was).
func TestMarquesMGComparesNothing(t *testing.T) {
	r := factorStudy(6, "seed004-npb", "lxc", "npb.mg", "class", []string{"S", "A"}, "energy.edp_Js", "J*s", 10)
	cmps, err := Compare(r, "marques")
	if err != nil {
		t.Fatal(err)
	}
	row, _ := findPaperRow(cmps, "Fig. 4", "EDP, MG, J*s", "lxc", "RPi 2")
	if row == nil {
		t.Fatal("no Fig. 4 MG row")
	}
	if row.Status == report.PaperMeasured || row.Cell != "" {
		t.Errorf("MG EDP compared with %q (%s), though the paper names no class", row.Cell, row.Status)
	}
}

// TestComparePaperComparesNoneOfSeveralMatches: where the paper leaves a
// level open that the study varied (Krylovskiy's STREAM names no array
// size; this study ran two), no cell is compared and the row names the
// candidates (issue 29 item 2: the first was taken, e.g. NPB class S).
func TestComparePaperComparesNoneOfSeveralMatches(t *testing.T) {
	r := factorStudy(7, "two sizes", "docker-bridge", "mem.stream", "array_MiB", []string{"25.4", "76.3"}, "scale_MBps", "MB/s", 1000)
	cmps, err := Compare(r, "krylovskiy2015")
	if err != nil {
		t.Fatal(err)
	}
	row, _ := findPaperRow(cmps, "Table III", "SCALE, Mb/s", "docker", "RPi 2")
	if row == nil {
		t.Fatal("no SCALE row")
	}
	if row.Status == report.PaperMeasured || !strings.Contains(row.Missing, "2 cells match") || !strings.Contains(row.Missing, "76.3") {
		t.Errorf("SCALE docker: %s, cell %q, missing %q: want none compared and both candidates named", row.Status, row.Cell, row.Missing)
	}
}

// factorStudy is a study of one workload, three rounds, in native and env,
// with a factor at levels (also the workload's parameter of that name);
// every run gives metric the value base + its round.
func factorStudy(id int64, name, env, wl, factor string, levels []string, metric, unit string, base float64) *report.Report {
	st := store.Study{ID: id, Name: name, Status: store.StudyFinished, HostJSON: epycHost, SpecYAML: "name: " + name + "\n"}
	envs := []string{"native", env}
	var runs []store.Run
	var samples []store.Sample
	for rep := range 3 {
		for _, e := range envs {
			for _, level := range levels {
				id := int64(len(runs) + 1)
				runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: wl + "|" + factor + "=" + level + "|env=" + e, Workload: wl,
					Env: e, Levels: map[string]string{"env": e, factor: level}, Params: map[string]any{factor: level}, Status: store.RunOK})
				samples = append(samples, store.Sample{RunID: id, Metric: metric, Value: base + float64(rep), Unit: unit})
			}
		}
	}
	return report.Build(st, report.Layout{Baseline: "native", Envs: envs, Workloads: []string{wl}}, runs, samples)
}

// TestMarquesFig6RequestsComparesNothing: the paper states its web
// application's requests/s both as "a performance overhead of 23.9%"
// (section IV-D) and as "improvements up to 23%" (abstract); an ambiguous
// row is compared with nothing and says why (issue 41 item 2).
func TestMarquesFig6RequestsComparesNothing(t *testing.T) {
	r := factorStudy(8, "seed004-http", "lxc", "http.gateway", "clients", []string{"10"}, "requests_per_s", "requests/s", 1000)
	cmps, err := Compare(r, "marques")
	if err != nil {
		t.Fatal(err)
	}
	row, _ := findPaperRow(cmps, "Fig. 6", "requests per second, requests/s", "lxc", "RPi 2")
	if row == nil {
		t.Fatal("no Fig. 6 requests/s row")
	}
	if row.Status == report.PaperMeasured || row.Cell != "" || row.Diff != nil {
		t.Errorf("requests/s compared with %q (%s, diff %v), though the paper contradicts itself", row.Cell, row.Status, row.Diff)
	}
	for _, want := range []string{"contradicts itself", "23.9%", "improvements up to 23%"} {
		if !strings.Contains(row.Ours, want) {
			t.Errorf("the row does not say why it compares nothing (%q missing): %q", want, row.Ours)
		}
	}
}
