package report

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// hostHistory is three quick studies of the EPYC host: docker-bridge
// costs 3 % in the first, gains 10 % in the second (a contradiction), and
// in the third the whole host runs 3 times as fast (the baseline moved);
// then one study of a Pi, which is another machine.
func hostHistory() []*Report {
	return []*Report{
		quickishOn(1, epycHost, 1, 0.97, false),
		quickishOn(2, epycHost, 1, 1.10, false),
		quickishOn(3, epycHost, 3, 0.97, false),
		quickishOn(4, piHost, 0.1, 0.9, false),
	}
}

func pct(v float64) *float64 { return &v }

func TestContradicts(t *testing.T) {
	v := func(decision string, lo, hi float64) Verdict {
		return Verdict{Decision: decision, OverheadCI95: []*float64{pct(lo), pct(hi)}}
	}
	tests := []struct {
		name string
		a, b Verdict
		want bool
	}{
		{"a gain against a cost", v(VerdictGains, 54.1, 177), v(VerdictCosts, -88.7, -16.5), true},
		{"two costs apart", v(VerdictCosts, -78.5, -59.4), v(VerdictCosts, -100, -79.9), true},
		{"two costs that overlap", v(VerdictCosts, -73.9, -51.1), v(VerdictCosts, -86.4, -70), false},
		{"a cost against no difference", v(VerdictCosts, 0.2, 2.4), v(VerdictNoDifference, -1.6, 1.9), true},
		{"undecided contradicts nothing", v(VerdictUndecided, -4, 4.9), v(VerdictCosts, -57.2, -3.8), false},
		{"no verdict at all", Verdict{}, v(VerdictCosts, 1, 2), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Contradicts(tt.a, tt.b); got != tt.want {
				t.Errorf("Contradicts = %v, want %v", got, tt.want)
			}
			if got := Contradicts(tt.b, tt.a); got != tt.want {
				t.Errorf("Contradicts, the other way = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestStudiesPhrase(t *testing.T) {
	for _, tt := range []struct {
		ids  []int64
		want string
	}{{[]int64{3}, "study 3"}, {[]int64{3, 4, 5}, "studies 3-5"}, {[]int64{1, 3, 7}, "studies 1, 3, 7"}} {
		if got := studiesPhrase(tt.ids); got != tt.want {
			t.Errorf("studiesPhrase(%v) = %q, want %q", tt.ids, got, tt.want)
		}
	}
}

// TestBaselineMoves: the third study's baseline, 3 times the first two's,
// is named in every figure; the second's, within their range, is not; a
// study of another machine is no history of this one.
func TestBaselineMoves(t *testing.T) {
	reps := hostHistory()
	if got := BaselineMoves(reps[1], reps[:1]); len(got) != 0 {
		t.Errorf("the same host in the same state: %d moves, want none: %+v", len(got), got)
	}
	moves := BaselineMoves(reps[2], reps[:2])
	if len(moves) != 7 { // mem.stream 4 metrics, disk.seq 3
		t.Fatalf("%d moves, want 7 (every baseline cell): %+v", len(moves), moves)
	}
	m := moves[0]
	want := "native mem.stream copy MB/s: 47764; 15852 to 15996 in studies 1-2 of this host: the host's state moved; verdicts on it may not hold"
	if m.Text != want || m.Study != 3 || len(m.Studies) != 2 {
		t.Errorf("move %+v\nwant text %q", m, want)
	}
	if got := BaselineMoves(reps[3], reps[:3]); len(got) != 0 {
		t.Errorf("a Pi held against an EPYC's studies: %d moves, want none", len(got))
	}
	r := quickishOn(3, epycHost, 3, 0.97, false)
	r.NoteBaselineMoves(moves)
	if r.WarningGroups[0].Kind != WarnMoved || !strings.HasPrefix(r.Warnings[0], "moved: native mem.stream copy MB/s") {
		t.Errorf("the moves are not the first warnings: %+v", r.WarningGroups[0])
	}
}

// TestHistoryOfOneHost: the studies of one host side by side, oldest
// first, the contradicting cells counted, the other machine left out.
func TestHistoryOfOneHost(t *testing.T) {
	h, left := NewHistory(hostHistory())
	if left != 1 || len(h.Studies) != 3 || h.Host != "vm" {
		t.Fatalf("history of %q: %d studies, %d left out; want vm, 3, 1", h.Host, len(h.Studies), left)
	}
	contradicting := 0
	for _, c := range h.Cells {
		if len(c.Points) != 3 {
			t.Errorf("%s %s %s: %d points, want 3", c.Workload, c.Env, c.Metric, len(c.Points))
		}
		if c.Contradictions > 0 {
			contradicting++
			if c.Env != "docker-bridge" {
				t.Errorf("%s %s %s contradicts, only docker-bridge changed", c.Workload, c.Env, c.Metric)
			}
		}
	}
	if contradicting != 7 {
		t.Errorf("%d cells contradict, want docker-bridge's 7", contradicting)
	}
	if len(h.BaselineMoves) != 7 || h.BaselineMoves[0].Study != 3 {
		t.Errorf("baseline moves %+v, want study 3's 7", h.BaselineMoves)
	}
}

// TestCompareListsContradictionsOfOneHost: two studies of one host whose
// docker-bridge verdicts contradict are listed first; two machines' are
// not contradictions.
func TestCompareListsContradictionsOfOneHost(t *testing.T) {
	reps := hostHistory()
	c := Compare([]string{"1", "2"}, reps[:2])
	if len(c.Contradictions) != 7 {
		t.Fatalf("%d contradictions, want docker-bridge's 7: %+v", len(c.Contradictions), c.Contradictions)
	}
	k := c.Contradictions[0]
	if k.Env != "docker-bridge" || !strings.HasPrefix(k.Texts[0], "costs") || !strings.HasPrefix(k.Texts[1], "gains") {
		t.Errorf("contradiction %+v", k)
	}
	var buf bytes.Buffer
	if err := WriteComparison(&buf, "table", c); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(buf.String(), "\n")
	if !strings.HasPrefix(lines[2], "Contradictions: 7 cell(s)") || !strings.Contains(lines[3], "docker-bridge: A costs") {
		t.Errorf("the contradictions are not first after the studies:\n%s", buf.String())
	}
	if got := Compare([]string{"1", "4"}, []*Report{reps[0], reps[3]}); len(got.Contradictions) != 0 {
		t.Errorf("an EPYC and a Pi: %d contradictions, want none", len(got.Contradictions))
	}
}

func TestHistoryMatchesGoldenFiles(t *testing.T) {
	h, _ := NewHistory(hostHistory())
	for _, format := range HistoryFormats() {
		t.Run(format, func(t *testing.T) {
			checkGolden(t, "history."+format, func(buf *bytes.Buffer) error { return WriteHistory(buf, format, h) })
		})
	}
	var doc struct {
		Schema  string `json:"schema"`
		Studies []struct {
			ID int64 `json:"id"`
		} `json:"studies"`
		Cells []struct {
			Points []struct {
				Study        int64      `json:"study"`
				Decision     string     `json:"decision"`
				OverheadCI95 []*float64 `json:"overhead_ci95"`
			} `json:"points"`
		} `json:"cells"`
	}
	var buf bytes.Buffer
	if err := WriteHistory(&buf, "json", h); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Schema != HistorySchema || len(doc.Studies) != 3 || doc.Studies[0].ID != 1 || len(doc.Cells[0].Points) != 3 || doc.Cells[0].Points[2].Study != 3 {
		t.Errorf("JSON history: %+v", doc)
	}
	if err := WriteHistory(&bytes.Buffer{}, "yaml", h); err == nil || !strings.Contains(err.Error(), "valid formats") {
		t.Errorf("unknown format: %v", err)
	}
}

// TestHistoryHTMLEscapes: a host label and a study name with markup are
// text on the page, not markup.
func TestHistoryHTMLEscapes(t *testing.T) {
	reps := hostHistory()[:2]
	for _, r := range reps {
		r.Study.Name = `<script>alert(1)</script>`
		r.host.Device = `<b>pi</b>`
	}
	h, _ := NewHistory(reps)
	var buf bytes.Buffer
	if err := WriteHistory(&buf, "html", h); err != nil {
		t.Fatal(err)
	}
	if s := buf.String(); strings.Contains(s, "<script>") || strings.Contains(s, "<b>pi") || !strings.Contains(s, "&lt;script&gt;") {
		t.Errorf("markup from the studies reached the page unescaped")
	}
}

// TestBaselineOfOtherWorkDidNotMove: a baseline that ran another command
// is not held against this one's (compare refuses such cells too).
func TestBaselineOfOtherWorkDidNotMove(t *testing.T) {
	reps := hostHistory()
	for k, size := range []string{"256MiB", "256MiB", "1GiB"} {
		for i, run := range reps[k].runs {
			run.Params = map[string]any{"size": size}
			reps[k].runs[i] = run
		}
	}
	if got := BaselineMoves(reps[1], reps[:1]); len(got) != 0 {
		t.Errorf("the same parameters, the same state: %d moves", len(got))
	}
	if got := BaselineMoves(reps[2], reps[:2]); len(got) != 0 {
		t.Errorf("a study of other parameters: %d moves, want none: %+v", len(got), got)
	}
}

func TestContradictionsMatchGoldenFiles(t *testing.T) {
	c := Compare([]string{"1", "2"}, hostHistory()[:2])
	for _, format := range CompareFormats() {
		t.Run(format, func(t *testing.T) {
			checkGolden(t, "compare-contradictions."+format, func(buf *bytes.Buffer) error { return WriteComparison(buf, format, c) })
		})
	}
}
