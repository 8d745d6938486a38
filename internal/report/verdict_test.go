package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
)

// cellStudy is a study of test.cpu (events/s, higher is better) with one
// row group per name in values: native's runs, then docker-bridge's.
func cellStudy(rows map[string][2][]float64, notes map[string]string) *Report {
	var runs []store.Run
	var samples []store.Sample
	for _, name := range sortedKeys(rows) {
		for e, env := range []string{"native", "docker-bridge"} {
			for rep, v := range rows[name][e] {
				id := int64(len(runs) + 1)
				runs = append(runs, store.Run{ID: id, Seq: len(runs), Rep: rep, CellKey: "test.cpu|case=" + name + "|env=" + env, Workload: "test.cpu", Env: env,
					Levels: map[string]string{"env": env, "case": name}, Status: store.RunOK, Notes: notes})
				samples = append(samples, store.Sample{RunID: id, Metric: "events_per_s", Value: v, Unit: "events/s"})
			}
		}
	}
	return Build(store.Study{ID: 1, Name: "verdict"}, Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"test.cpu"}}, runs, samples)
}

func verdictOfCase(t *testing.T, r *Report, name string) Verdict {
	t.Helper()
	for _, v := range r.Verdicts {
		if v.Levels["case"] == name {
			return v
		}
	}
	t.Fatalf("no verdict for %s in %+v", name, r.Verdicts)
	return Verdict{}
}

// Each kind of verdict, with its words and its order: costs largest
// first, then gains, then undecided, then no difference.
func TestVerdictOfEachCell(t *testing.T) {
	r := cellStudy(map[string][2][]float64{
		"slower":  {{1000, 1010, 990}, {950, 960, 940}},                 // -5 %: costs 5 % less throughput
		"slowest": {{1000, 1010, 990}, {800, 810, 790}},                 // -20 %
		"faster":  {{1000, 1010, 990}, {1100, 1110, 1090}},              // +10 %: gains
		"same":    {{1000, 1001, 999, 1000}, {1000, 1001, 999, 1000.5}}, // inside ±2 %
		"wide":    {{1000, 1200, 800}, {1100, 1300, 900}},               // holds 0, reaches past ±2 %
		"near":    {{1000, 1010, 990}, {1010, 1025, 995}},               // +1 %: within a few %, not ±2 %
	}, nil)
	for _, tc := range []struct{ name, decision, text string }{
		{"slowest", VerdictCosts, "costs 20.0% ["},
		{"slower", VerdictCosts, "costs 5.0% [2.8, 7.2]: less throughput"},
		{"faster", VerdictGains, "gains 10.0% ["},
		{"wide", VerdictUndecided, "more round(s) would likely decide it"},
		{"near", VerdictUndecided, "%, not ±2%; about "},
		{"same", VerdictNoDifference, "no difference beyond ±2% [-"},
	} {
		v := verdictOfCase(t, r, tc.name)
		if v.Decision != tc.decision || !strings.Contains(v.Text, tc.text) {
			t.Errorf("%s: %s %q, want %s %q", tc.name, v.Decision, v.Text, tc.decision, tc.text)
		}
	}
	var order []string
	for _, v := range r.Verdicts {
		order = append(order, v.Levels["case"])
	}
	if got := strings.Join(order, ","); got != "slowest,slower,faster,wide,near,same" {
		t.Errorf("order %s, want the costs largest first, then gains, undecided, no difference", got)
	}
	if v := verdictOfCase(t, r, "wide"); v.N != 3 || v.MoreRounds == nil || *v.MoreRounds < 1 {
		t.Errorf("undecided: %+v", v)
	}
	// The smallest margin an undecided interval does show: its larger end.
	near := verdictOfCase(t, r, "near")
	lo, hi := *near.OverheadCI95[0], *near.OverheadCI95[1]
	if near.WithinPct == nil || *near.WithinPct != max(-lo, hi) || *near.WithinPct <= 2 ||
		!strings.Contains(near.Text, fmt.Sprintf("within ±%.1f%%, not ±2%%", *near.WithinPct)) {
		t.Errorf("near: within %v, text %q, want the larger end of [%g, %g] said", near.WithinPct, near.Text, lo, hi)
	}
	// A wider margin (report --precision 80) turns the undecided cell no
	// difference only when its whole interval fits.
	r.Decide(80)
	if v := verdictOfCase(t, r, "wide"); v.Decision != VerdictNoDifference || !strings.Contains(v.Text, "±80%") {
		t.Errorf("with ±80%%: %+v", v)
	}
}

// Issue 28: a -95.8 % cell with n = 2 was listed under "No difference
// beyond noise": its baseline's two runs spread so that the interval was
// unbounded, and nothing was significant. It is undecided.
func TestAnUndecidedCellIsNeverNoDifference(t *testing.T) {
	r := cellStudy(map[string][2][]float64{"collapse": {{600, 1500}, {0, 88}}}, nil)
	v := verdictOfCase(t, r, "collapse")
	if v.Decision != VerdictUndecided || fmt.Sprintf("%.1f", *v.OverheadPct) != "-95.8" || !strings.Contains(v.Text, "undecided: no interval (baseline mean not distinguishable from zero") {
		t.Fatalf("verdict %+v", v)
	}
	if out := verdictText(t, r); strings.Contains(out, "no difference beyond") || !strings.Contains(out, "undecided (1 cell)") {
		t.Errorf("verdict:\n%s", out)
	}
}

// The terminal verdict fits one screen however many cells the study has.
func TestVerdictFitsOneScreen(t *testing.T) {
	rows := map[string][2][]float64{}
	for i := range 40 {
		f := 1 - float64(i%4)*0.05 // costs, and no difference
		rows[fmt.Sprintf("c%02d", i)] = [2][]float64{{1000, 1001, 999}, {1000 * f, 1001 * f, 999 * f}}
		rows[fmt.Sprintf("u%02d", i)] = [2][]float64{{1000, 1300, 700}, {1100, 1400, 800}}
	}
	out := verdictText(t, cellStudy(rows, nil))
	if n := strings.Count(out, "\n"); n > 20 {
		t.Errorf("%d lines:\n%s", n, out)
	}
	for _, w := range []string{"+22 more costs and gains: boxtax report --format html", "no difference beyond ±2% (10 cells)", "undecided (40 cells)", "+35 more undecided"} {
		if !strings.Contains(out, w) {
			t.Errorf("verdict lacks %q:\n%s", w, out)
		}
	}
}

// Issue 28: make run printed 26 warning lines, the storage sentence once
// per cell and a noisy line per cell. Each cause is said once now, at most
// 5 lines, and the JSON has them with their kind and cells.
func TestWarningsGroupedByCause(t *testing.T) {
	rows := map[string][2][]float64{}
	for i := range 13 {
		rows[fmt.Sprintf("n%02d", i)] = [2][]float64{{1000, 1300, 700}, {1000, 1300, 700}}
	}
	fuse := "FUSE filesystem (e.g. Docker's fuse-overlayfs): reads may come from memory"
	r := cellStudy(rows, map[string]string{"fs_warning": fuse})
	for i := range 6 {
		r.warns = append(r.warns, Warning{Kind: WarnNote, Subject: "test.cpu @ docker-bridge", Message: fmt.Sprintf("note %d", i)})
	}
	r.groupWarnings()
	out := tableOf(t, r)
	out = out[strings.Index(out, "\nwarnings:\n"):] // the footnotes: no thin cells or failed runs here
	if strings.Count(out, "FUSE") != 1 || !strings.Contains(out, "storage: test.cpu @ native, docker-bridge: "+fuse) {
		t.Errorf("the storage cause is not said once, naming its cells:\n%s", out)
	}
	if strings.Count(out, "noisy") != 1 || !strings.Contains(out, "noisy: 26 of 26 cells (marked ~)") {
		t.Errorf("the noisy cells are not one line:\n%s", out)
	}
	if lines := strings.Count(out, "\n  "); lines != MaxWarningLines+1 || !strings.Contains(out, "  +3 more: boxtax report --format html") {
		t.Errorf("%d warning lines, want %d and a +N more line:\n%s", lines, MaxWarningLines+1, out)
	}
	var doc struct {
		WarningGroups []WarningGroup `json:"warning_groups"`
		Warnings      []string       `json:"warnings"`
	}
	var js bytes.Buffer
	if err := Write(&js, "json", r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.WarningGroups) != 8 || len(doc.Warnings) != 8 || doc.WarningGroups[0].Kind != WarnStorage || len(doc.WarningGroups[0].Cells) != 2 ||
		doc.WarningGroups[1].Kind != WarnNoisy || len(doc.WarningGroups[1].Cells) != 26 || doc.WarningGroups[7].Kind != WarnNote {
		t.Errorf("JSON warnings: %+v", doc)
	}
	if !strings.Contains(tableOf(t, r), "+0.0%~ (sd 300.0)") {
		t.Errorf("a noisy cell is not marked ~:\n%s", tableOf(t, r))
	}
}

// verdictText is the verdict the table format prints, up to the blank
// line after it.
func verdictText(t *testing.T, r *Report) string {
	t.Helper()
	table := tableOf(t, r)
	start := strings.Index(table, "verdict, each environment")
	if start < 0 {
		t.Fatalf("no verdict in the table:\n%s", table)
	}
	return table[start : start+strings.Index(table[start:], "\n\n")+2]
}

// tableOf is r in the table format.
func tableOf(t *testing.T, r *Report) string {
	t.Helper()
	var b bytes.Buffer
	if err := Write(&b, "table", r); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// Issue 28: a --cmd table showed "-3.0% (0.0179)" and "0 (0) abs" with
// nothing to say what the figures are.
func TestTableSaysWhatEachFigureIs(t *testing.T) {
	r := cellStudy(map[string][2][]float64{
		"time": {{1000, 1010, 990}, {950, 960, 940}},
		"zero": {{0, 0, 0}, {0.01, 0, 0.02}},
	}, nil)
	out := tableOf(t, r)
	for _, w := range []string{"1000 (sd 10.00)", "-5.0%* (sd 10.00)", "0.01~ (sd 0.01) abs", "sd: the runs' standard deviation, in the metric's unit",
		"mean (sd) in the metric's unit, abs: no % deviation, baseline mean is zero: a percentage of it is undefined: test.cpu case=zero events/s @ docker-bridge"} {
		if !strings.Contains(out, w) {
			t.Errorf("table lacks %q:\n%s", w, out)
		}
	}
	var md bytes.Buffer
	if err := Write(&md, "markdown", r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "abs: no % deviation, baseline mean is zero") || !strings.Contains(md.String(), "(sd 10.00)") {
		t.Errorf("markdown does not say what abs and sd are:\n%s", md.String())
	}
}

// TestRepetitionsSayFocusedRounds: when an adaptive study's focused rounds
// left decided cells out, the repetitions line gives the range of runs a
// cell has and why, instead of the rounds as if every cell had them all.
func TestRepetitionsSayFocusedRounds(t *testing.T) {
	r := cellStudy(map[string][2][]float64{
		"decided": {{1000, 1010, 990}, {800, 810, 790}},
		"focused": {{1000, 1010, 990, 1005, 995}, {1000, 1020, 985, 1010, 990}},
	}, nil)
	rep := r.Study.Repetitions
	if rep.Rounds != 5 || rep.Fewest != 3 {
		t.Fatalf("rounds %d, fewest %d; want 5 and 3", rep.Rounds, rep.Fewest)
	}
	rep.Spec, rep.PrecisionPct, rep.MaxRounds = 3, 2, 1000
	want := "repetitions: 3 to 5 per cell (adaptive: started with 3, target ±2%, at most 1000; the rounds after the first measured only the cells still undecided, with their baselines)"
	if got := rep.String(); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	whole := cellStudy(map[string][2][]float64{"a": {{1, 2, 3}, {1, 2, 3}}}, nil).Study.Repetitions
	if whole.Fewest != 0 || !strings.HasPrefix(whole.String(), "repetitions: 3 per cell") {
		t.Errorf("whole rounds: fewest %d, %q", whole.Fewest, whole.String())
	}
}

// TestCellMeetsItsBaselineInItsOwnRounds: a cell that focused rounds left
// out after round 3 is compared with the baseline's runs of rounds 1 to
// 3, not with the later ones, which met a host that had changed.
func TestCellMeetsItsBaselineInItsOwnRounds(t *testing.T) {
	r := cellStudy(map[string][2][]float64{
		"left out": {{1000, 1002, 998, 500, 505}, {1001, 1003, 998}},
	}, nil)
	v := verdictOfCase(t, r, "left out")
	if v.Decision != VerdictNoDifference || v.OverheadPct == nil || math.Abs(*v.OverheadPct) > 1 {
		t.Errorf("%s %v: want no difference, against the baseline's first 3 rounds (all 5 make it look +33%%)", v.Decision, v.Text)
	}
}

// TestAdaptiveVerdictEstimatesTheRulesRounds: in an adaptive study an
// undecided cell's further rounds are the stopping rule's estimate (the
// rounds a firm verdict would take), so the report and the run's end
// lines name the same number.
func TestAdaptiveVerdictEstimatesTheRulesRounds(t *testing.T) {
	native, docker := []float64{1000, 1040, 960, 1010}, []float64{1060, 1110, 1010, 1070}
	runs, samples := roundRuns([]string{"native", "docker-bridge"}, native, docker)
	lay := Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"test.cpu"}}
	fixed := Build(store.Study{ID: 1, Name: "fixed"}, lay, runs, samples)
	lay.Repetitions.PrecisionPct = 2
	adaptive := Build(store.Study{ID: 2, Name: "adaptive"}, lay, runs, samples)
	if len(fixed.Verdicts) != 1 || len(adaptive.Verdicts) != 1 {
		t.Fatalf("verdicts: %+v and %+v", fixed.Verdicts, adaptive.Verdicts)
	}
	reps := []int{0, 1, 2, 3}
	o := stats.OverheadAcrossRounds(native, reps, docker, reps, 0.95).Overhead
	rule := stats.DecideFirm(o, 4, 2)
	plain := stats.Decide(o, 4, 2)
	f, a := fixed.Verdicts[0], adaptive.Verdicts[0]
	if a.Decision != VerdictUndecided || a.MoreRounds == nil || *a.MoreRounds != rule.MoreRounds {
		t.Fatalf("adaptive: %s, more rounds %v; want undecided and the rule's %d", a.Decision, a.MoreRounds, rule.MoreRounds)
	}
	if f.MoreRounds == nil || *f.MoreRounds != plain.MoreRounds || plain.MoreRounds >= rule.MoreRounds {
		t.Errorf("fixed: more rounds %v, want Decide's %d, fewer than the rule's %d", f.MoreRounds, plain.MoreRounds, rule.MoreRounds)
	}
}

// Issue 43: an adaptive study's cell without an interval yet (a noisy
// baseline) has an estimate of the rounds that would bound and decide it;
// its text says so, and says nothing of rounds when the estimate is out
// of reach.
func TestNoIntervalSaysTheRoundsThatWouldBoundIt(t *testing.T) {
	const note = "baseline mean not distinguishable from zero: the Fieller interval is unbounded"
	for _, tc := range []struct {
		more int
		want string
	}{
		{4, "undecided: no interval (" + note + "); about 4 more round(s) would likely bound and decide it"},
		{stats.MaxMoreRounds, "undecided: no interval (" + note + ")"},
	} {
		more := tc.more
		v := Verdict{Decision: VerdictUndecided, OverheadCI95: []*float64{nil, nil}, MarginPct: 2, MoreRounds: &more}
		if got := v.phrase(note); got != tc.want {
			t.Errorf("MoreRounds %d: %q, want %q", tc.more, got, tc.want)
		}
	}
}

// Issue 43, one answer: an adaptive study's verdict is the study's answer
// as result.Decide gives it (the run's end lines, bench/verdicts): where
// the 95 % interval clears the margin and the firm one does not,
// undecided, leaning to the gain; where the firm one clears it, the gain.
func TestAdaptiveVerdictIsTheStudysAnswer(t *testing.T) {
	native := []float64{1000, 1010, 990, 1005, 995}
	lay := Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"test.cpu"}}
	lay.Repetitions.PrecisionPct = 2
	judge := func(shift float64) (result.CellDecision, Verdict) {
		docker := []float64{1000 + shift, 1015 + shift, 985 + shift, 1000 + shift, 1000 + shift}
		runs, samples := roundRuns(lay.Envs, native, docker)
		d := result.Decide(result.Layout{Baseline: "native", Envs: lay.Envs, Workloads: lay.Workloads, MarginPct: 2}, runs, samples, false)
		rep := Build(store.Study{ID: 1, Name: "adaptive"}, lay, runs, samples)
		if len(d.Cells) != 1 || len(rep.Verdicts) != 1 {
			t.Fatalf("cells %+v, verdicts %+v: want one", d.Cells, rep.Verdicts)
		}
		return d.Cells[0], rep.Verdicts[0]
	}
	leaning := false
	for shift := 5.0; shift < 100; shift += 0.5 { // from the least cost that clears 95 % to a firm one
		c, v := judge(shift)
		switch {
		case c.Verdict.Decision == stats.Costs:
			if v.Decision != VerdictGains || v.Leans != "" {
				t.Fatalf("shift %g: report %s leaning %q, want the answer: more events/s, a gain", shift, v.Decision, v.Leans)
			}
			if !leaning {
				t.Fatal("no runs found whose 95 % interval clears the margin while the firm one does not")
			}
			return
		case c.Verdict.Leans == stats.Costs:
			leaning = true
			if v.Decision != VerdictUndecided || v.Leans != VerdictGains || !strings.HasPrefix(v.Text, "undecided, leans to: gains ") ||
				!strings.Contains(v.Text, "not firm") {
				t.Fatalf("shift %g: report %s leaning %q (%s), want undecided, leaning to a gain", shift, v.Decision, v.Leans, v.Text)
			}
		}
	}
	t.Fatal("no shift up to 100 gave a firm gain")
}

// TestDecidedCellKeepsItsLook: an adaptive study's cell decided after its
// first 3 rounds, whose runs went on for 7 more that would leave it
// undecided, is the cost that look decided, in the report as in the
// study's answer, and its text says when it was decided.
func TestDecidedCellKeepsItsLook(t *testing.T) {
	var native, docker []float64
	wild := []float64{1.3, 0.4, 1.5, 0.3, 1.2, 0.5, 1.4}
	for rep := range 10 {
		v := 1000 * (1 + 0.002*float64(rep%3-1))
		native = append(native, v)
		if rep < 3 {
			docker = append(docker, 0.8*v)
		} else {
			docker = append(docker, wild[rep-3]*v)
		}
	}
	lay := Layout{Baseline: "native", Envs: []string{"native", "docker-bridge"}, Workloads: []string{"test.cpu"}}
	lay.Repetitions.PrecisionPct, lay.Repetitions.Spec = 2, 3
	runs, samples := roundRuns(lay.Envs, native, docker)
	d := result.Decide(result.Layout{Baseline: "native", Envs: lay.Envs, Workloads: lay.Workloads, MarginPct: 2, FirstRounds: 3}, runs, samples, false)
	rep := Build(store.Study{ID: 1, Name: "adaptive"}, lay, runs, samples)
	if len(d.Cells) != 1 || len(rep.Verdicts) != 1 {
		t.Fatalf("cells %+v, verdicts %+v: want one", d.Cells, rep.Verdicts)
	}
	a, v := d.Cells[0].Verdict, rep.Verdicts[0]
	if a.Decision != stats.Costs || v.Decision != VerdictCosts || v.DecidedAfter != 3 || v.N != 3 {
		t.Fatalf("answer %v %s; report %s after %d rounds, n %d (%s): want the cost decided after 3 rounds in both", a.Decision, result.Interval(a), v.Decision, v.DecidedAfter, v.N, v.Text)
	}
	if *v.OverheadPct != a.Pct || *v.OverheadCI95[0] != a.LoPct || *v.OverheadCI95[1] != a.HiPct {
		t.Errorf("report %v %v, answer %s: want the same interval", *v.OverheadPct, v.OverheadCI95, result.Interval(a))
	}
	if !strings.HasPrefix(v.Text, "costs 20.0% [") || !strings.HasSuffix(v.Text, "; decided after 3 rounds, the 7 after them measured for the run's other metrics") {
		t.Errorf("text %q", v.Text)
	}
	if c := rep.Cells[1]; c.Env != "docker-bridge" || c.N != 10 {
		t.Errorf("cell %s with %d runs: the table keeps every run", c.Env, c.N)
	}
	lay.Repetitions.Spec = 0 // a study of fixed rounds: no looks
	if v := Build(store.Study{ID: 1}, lay, runs, samples).Verdicts[0]; v.Decision != VerdictUndecided || v.DecidedAfter != 0 {
		t.Errorf("without looks: %s after %d rounds, want undecided on all 10", v.Text, v.DecidedAfter)
	}
}
