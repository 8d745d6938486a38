package report

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// WarnMoved is the kind of warning that says the baseline of a study
// measured outside what earlier studies of the same host measured.
const WarnMoved = "moved"

// MoveTolerancePct is how far past the earlier studies' range (as a
// percentage of its nearer end) a baseline's mean must lie to count as
// moved: the few percent a host varies by from hour to hour are not a
// change of state.
const MoveTolerancePct = 5.0

// BaselineMove is one baseline cell whose mean in this study lies outside
// the range of every run of it in earlier studies of the same host: the
// host's state moved (a disk that writes 3 times faster than this
// morning), so verdicts measured against it may not hold on another day.
type BaselineMove struct {
	Study    int64             `json:"study"` // the study whose baseline moved
	Workload string            `json:"workload"`
	Env      string            `json:"env"` // the baseline
	Levels   map[string]string `json:"levels"`
	Metric   string            `json:"metric"`
	Label    string            `json:"label"`
	Unit     string            `json:"unit"`
	Row      string            `json:"-"`
	Mean     float64           `json:"mean"`          // this study's
	Min      float64           `json:"earlier_min"`   // the lowest run of the earlier studies
	Max      float64           `json:"earlier_max"`   // the highest
	Studies  []int64           `json:"earlier_study"` // the earlier studies' ids, oldest first
	Text     string            `json:"text"`
}

// sameMachine tells whether two reports' studies ran on one machine.
func sameMachine(a, b *Report) bool { return hostinfo.SameMachine(a.host, b.host) }

// BaselineMoves compares the baseline of r with that of earlier studies:
// every primary baseline cell of r whose mean lies more than
// MoveTolerancePct outside the range of the runs of the same cell in the
// earlier studies that ran on r's machine. earlier may hold any studies;
// those of other machines, and r itself, are left out.
func BaselineMoves(r *Report, earlier []*Report) []BaselineMove {
	type span struct {
		min, max float64
		studies  []int64
	}
	spans := map[string]*span{}
	keyOf := func(c *Cell) string {
		return c.Workload + "\x00" + c.Env + "\x00" + levelsKey(c.Levels) + "\x00" + c.Metric
	}
	for _, e := range earlier {
		if e.Study.ID == r.Study.ID || !sameMachine(r, e) {
			continue
		}
		for i := range e.Cells {
			c := &e.Cells[i]
			if !c.IsBaseline || c.Secondary || len(c.Values) == 0 || !sameWork(r, e, c) {
				continue
			}
			s := spans[keyOf(c)]
			if s == nil {
				s = &span{min: math.Inf(1), max: math.Inf(-1)}
				spans[keyOf(c)] = s
			}
			for _, v := range c.Values {
				s.min, s.max = math.Min(s.min, v), math.Max(s.max, v)
			}
			s.studies = append(s.studies, e.Study.ID)
		}
	}
	out := []BaselineMove{}
	for i := range r.Cells {
		c := &r.Cells[i]
		s := spans[keyOf(c)]
		if s == nil || !c.IsBaseline || c.Secondary || c.N == 0 || !outside(c.Mean, s.min, s.max) {
			continue
		}
		m := BaselineMove{Study: r.Study.ID, Workload: c.Workload, Env: c.Env, Levels: c.Levels, Metric: c.Metric, Label: c.Label, Unit: c.Unit,
			Row: RowName(c, r.factors), Mean: c.Mean, Min: s.min, Max: s.max, Studies: s.studies}
		m.Text = fmt.Sprintf("%s %s %s: %s; %s to %s in %s of this host: the host's state moved; verdicts on it may not hold",
			c.Env, m.Row, c.Label, FmtValue(c.Mean), FmtValue(s.min), FmtValue(s.max), studiesPhrase(s.studies))
		out = append(out, m)
	}
	return out
}

// sameWork tells whether cell c of the earlier study e ran the same work
// (the same workload parameters: command, sizes) as the same cell in r, as
// compare checks (differences): a baseline that ran another command did
// not move, it did something else.
func sameWork(r, e *Report, c *Cell) bool {
	row := CompareRow{Workload: c.Workload, Env: c.Env, Levels: c.Levels}
	mine, theirs := runParams(r, row), runParams(e, row)
	for name, v := range mine {
		if o, ok := theirs[name]; ok && !sameParam(v, o) {
			return false
		}
	}
	return true
}

// outside tells whether mean lies beyond [lo, hi] by more than
// MoveTolerancePct of the nearer end.
func outside(mean, lo, hi float64) bool {
	tol := MoveTolerancePct / 100
	return mean > hi+tol*math.Abs(hi) || mean < lo-tol*math.Abs(lo)
}

// studiesPhrase names study ids as "study 3", "studies 3-5" (a run of
// consecutive ids) or "studies 1, 3, 7".
func studiesPhrase(ids []int64) string {
	if len(ids) == 1 {
		return "study " + strconv.FormatInt(ids[0], 10)
	}
	consecutive := true
	for i := 1; i < len(ids); i++ {
		consecutive = consecutive && ids[i] == ids[i-1]+1
	}
	if consecutive {
		return fmt.Sprintf("studies %d-%d", ids[0], ids[len(ids)-1])
	}
	parts := make([]string, len(ids))
	for i, id := range ids {
		parts[i] = strconv.FormatInt(id, 10)
	}
	return "studies " + strings.Join(parts, ", ")
}

// NoteBaselineMoves puts the moves first among the report's warnings, one
// group that names every moved cell, so every format says them (the
// terminal table, Markdown, the HTML page and JSON's warning_groups);
// JSON also has them in full as baseline_moves.
func (r *Report) NoteBaselineMoves(moves []BaselineMove) {
	r.BaselineMoves = moves
	if len(moves) == 0 {
		return
	}
	groups := make([]WarningGroup, 0, len(moves)+len(r.WarningGroups))
	texts := make([]string, 0, len(moves)+len(r.Warnings))
	for _, m := range moves {
		g := WarningGroup{Kind: WarnMoved, Cells: []string{fmt.Sprintf("%s @ %s %s", m.Row, m.Env, m.Label)}, Text: "moved: " + m.Text}
		groups, texts = append(groups, g), append(texts, g.Text)
	}
	r.WarningGroups = append(groups, r.WarningGroups...)
	r.Warnings = append(texts, r.Warnings...)
}
