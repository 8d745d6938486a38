package papers

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/study"
)

// TestPresetsStateWhereTheyDepartFromTheirPapers: every setting of a
// preset that differs from its paper's recorded method (papers/*.yaml,
// method:) is stated with a reason in the preset (paper.deviations) and in
// docs/seeds.md, and every stated deviation is one (issue 29 item 3:
// seed001-cpu ran linpack at n 500, the paper at 1000, without a word).
func TestPresetsStateWhereTheyDepartFromTheirPapers(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "..", "docs", "seeds.md"))
	if err != nil {
		t.Fatal(err)
	}
	docLines := strings.Split(string(doc), "\n")
	checked := 0
	for _, pp := range presetsOfPapers(t) {
		name, s, p := pp.name, pp.spec, pp.paper
		differ, stale := p.MethodDifferences(s)
		for _, d := range differ {
			checked++
			if d.Reason == "" {
				t.Errorf("%s: %s is %q, the paper's %q (%q): set it as the paper, or state why under paper.deviations", name, settingName(d.Method.Workload, d.Method.Param), d.Study, d.Method.Value, d.Method.Quote)
			}
		}
		for _, d := range stale {
			t.Errorf("%s: paper.deviations states %s, which is as the paper: remove the deviation", name, settingName(d.Workload, d.Param))
		}
		for _, d := range s.Paper.Deviations {
			recorded := false
			for _, m := range p.Method {
				recorded = recorded || (m.Workload == d.Workload && m.Param == d.Param)
			}
			if !recorded {
				t.Errorf("%s: deviation %s has no paper value: record it under method: in papers/%s.yaml, with its quote", name, settingName(d.Workload, d.Param), p.ID)
			}
			if !documented(docLines, name, d) {
				t.Errorf("%s: deviation %s is not in docs/seeds.md: add a line naming `%s`, `%s`%s", name, settingName(d.Workload, d.Param), name, d.Param, map[bool]string{true: " and `" + d.Workload + "`", false: ""}[d.Workload != ""])
			}
		}
	}
	if checked == 0 {
		t.Error("no preset setting was compared with its paper's")
	}
}

// TestPaperMethodsQuoteTheSeeds: each recorded setting of a paper's method
// is quoted from the seed text (its verbatim excerpt).
func TestPaperMethodsQuoteTheSeeds(t *testing.T) {
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ps {
		text := strings.Join(strings.Fields(strings.Join(readSource(t, p.ID), " ")), " ")
		for _, m := range p.Method {
			if m.Quote == "" || !strings.Contains(text, strings.Join(strings.Fields(m.Quote), " ")) {
				t.Errorf("%s method %s: quote %q is not in testdata/seeds/%s.txt", p.ID, settingName(m.Workload, m.Param), m.Quote, p.ID)
			}
		}
	}
}

func settingName(wl, param string) string {
	if wl == "" {
		return param
	}
	return wl + " " + param
}

// documented: a line of docs/seeds.md names the preset, the parameter and
// its workload, each in backquotes.
func documented(lines []string, preset string, d study.Deviation) bool {
	for _, l := range lines {
		if strings.Contains(l, "`"+preset+"`") && strings.Contains(l, "`"+d.Param+"`") && (d.Workload == "" || strings.Contains(l, "`"+d.Workload+"`")) {
			return true
		}
	}
	return false
}

// runsTheToolItself lists the workloads that run a program the paper used
// (sysbench, fio, iperf3, stress-ng) rather than standing in for it.
var runsTheToolItself = map[string]bool{"cmd": true, "cmd.server": true, "load.stress-ng": true}

// TestPresetsKnowTheirStandIns: every workload a preset runs for its paper,
// in the foreground or as a background load, has the paper's tool for it
// recorded (method: param tool, or value none where the paper names
// none), so that TestPresetsStateWhereTheyDepartFromTheirPapers requires
// the deviation of every built-in standing in for a paper's tool (issue
// 41: seed001-cpu ran cpu.linpack for Linpack, seed004-stream mem.stream
// for STREAM, without a word).
func TestPresetsKnowTheirStandIns(t *testing.T) {
	checked := 0
	for _, pp := range presetsOfPapers(t) {
		name, s, p := pp.name, pp.spec, pp.paper
		var run []string
		for _, w := range s.Workloads {
			run = append(run, w.Name)
		}
		for _, f := range s.Factors {
			for _, b := range f.Background {
				if b != nil {
					run = append(run, b.Workload)
				}
			}
		}
		for _, wl := range run {
			if runsTheToolItself[wl] {
				continue
			}
			checked++
			known := false
			for _, m := range p.Method {
				known = known || (m.Workload == wl && m.Param == "tool")
			}
			if !known {
				t.Errorf("%s runs %s for %s, whose tool for it is not recorded: add {workload: %s, param: tool, value: the paper's program (or %s where it names none), quote: ...} to method: in papers/%s.yaml", name, wl, p.ID, wl, ToolNone, p.ID)
			}
		}
	}
	if checked == 0 {
		t.Error("no preset's workload was checked")
	}
}

// presetOfPaper is a preset that reproduces a transcribed paper.
type presetOfPaper struct {
	name  string
	spec  *study.Spec
	paper Paper
}

// presetsOfPapers is every preset that names a paper, with the paper; a
// paper that is not transcribed is an error.
func presetsOfPapers(t *testing.T) []presetOfPaper {
	t.Helper()
	ps, err := All()
	if err != nil {
		t.Fatal(err)
	}
	papers := map[string]Paper{}
	for _, p := range ps {
		papers[p.ID] = p
	}
	var out []presetOfPaper
	for _, name := range study.Presets() {
		s, err := study.Preset(name)
		if err != nil {
			t.Fatal(err)
		}
		if s.Paper == nil || s.Paper.ID == "" {
			continue
		}
		p, ok := papers[s.Paper.ID]
		if !ok {
			t.Errorf("%s: paper %q is not transcribed", name, s.Paper.ID)
			continue
		}
		out = append(out, presetOfPaper{name, s, p})
	}
	return out
}
