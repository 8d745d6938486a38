package report

import (
	"fmt"
	"sort"
	"time"

	"github.com/boxtax/boxtax/internal/env/docker"
)

// HistorySchema names the JSON form of a history.
const HistorySchema = "boxtax.history/v1"

// History is every cell's verdict over the studies of one host, oldest
// first, as continuous-benchmarking dashboards show a benchmark over
// commits: a drift, or a change after an engine or kernel upgrade, is
// seen at a glance (report --history).
type History struct {
	Schema  string         `json:"schema"`
	Host    string         `json:"host"` // the device label, else the hostname
	Studies []HistoryStudy `json:"studies"`
	Cells   []HistoryCell  `json:"cells"`
	// BaselineMoves are, for each study, where its baseline lies outside
	// what the studies before it measured (BaselineMoves).
	BaselineMoves []BaselineMove `json:"baseline_moves"`
}

// HistoryStudy is one study of a history, with what may have changed on
// the host since the one before.
type HistoryStudy struct {
	ID      int64     `json:"id"`
	Name    string    `json:"name"`
	Created time.Time `json:"created_at"`
	Kernel  string    `json:"kernel"`
	Engine  string    `json:"engine,omitempty"` // Docker's version and storage driver
	Boxtax  string    `json:"boxtax_version"`
	Rounds  string    `json:"rounds"` // the repetitions per cell, as the report says them
}

// HistoryCell is one cell (an environment's primary metric against the
// baseline) over the studies: a point per study that measured it.
type HistoryCell struct {
	CellName
	Points []HistoryPoint `json:"points"`
	// Contradictions counts the pairs of studies whose verdicts on the
	// cell contradict each other (Contradicts).
	Contradictions int `json:"contradictions"`
}

// HistoryPoint is one study's verdict on a cell.
type HistoryPoint struct {
	Study        int64      `json:"study"` // the study's id
	Index        int        `json:"index"` // its place in History.Studies
	Decision     string     `json:"decision"`
	OverheadPct  *float64   `json:"overhead_pct"`
	OverheadCI95 []*float64 `json:"overhead_ci95"`
	N            int        `json:"n"`
	Text         string     `json:"text"`
	verdict      Verdict
}

// NewHistory puts the verdicts of reports of one host's studies side by
// side, in the order given (oldest first); reports of another machine than
// the first's are left out and counted in the returned number. Each
// report's verdicts are as Decide left them.
func NewHistory(reports []*Report) (*History, int) {
	h := &History{Schema: HistorySchema, Studies: []HistoryStudy{}, Cells: []HistoryCell{}, BaselineMoves: []BaselineMove{}}
	var same []*Report
	for _, r := range reports {
		if len(same) > 0 && !sameMachine(same[0], r) {
			continue
		}
		same = append(same, r)
	}
	if len(same) == 0 {
		return h, len(reports)
	}
	h.Host = same[0].host.Label()
	index := map[string]int{}
	order := map[string]int{} // a cell's place in the reports' tables
	for _, r := range same {
		for k := range r.Cells {
			c := &r.Cells[k]
			key := c.Workload + "\x00" + c.Env + "\x00" + levelsKey(c.Levels) + "\x00" + c.Metric
			if _, ok := order[key]; !ok {
				order[key] = len(order)
			}
		}
	}
	for i, r := range same {
		h.Studies = append(h.Studies, historyStudy(r))
		for _, v := range r.Verdicts {
			k := verdictKey(v)
			j, ok := index[k]
			if !ok {
				j = len(h.Cells)
				index[k] = j
				h.Cells = append(h.Cells, HistoryCell{CellName: v.CellName})
			}
			c := &h.Cells[j]
			for _, p := range c.Points {
				if Contradicts(p.verdict, v) {
					c.Contradictions++
				}
			}
			c.Points = append(c.Points, HistoryPoint{Study: r.Study.ID, Index: i, Decision: v.Decision, OverheadPct: v.OverheadPct,
				OverheadCI95: v.OverheadCI95, N: v.N, Text: v.Text, verdict: v})
		}
		if i > 0 {
			h.BaselineMoves = append(h.BaselineMoves, BaselineMoves(r, same[:i])...)
		}
	}
	sort.SliceStable(h.Cells, func(i, j int) bool {
		return order[historyKey(&h.Cells[i])] < order[historyKey(&h.Cells[j])]
	})
	return h, len(reports) - len(same)
}

// historyKey names a history's cell as verdictKey names a verdict.
func historyKey(c *HistoryCell) string {
	return c.Workload + "\x00" + c.Env + "\x00" + levelsKey(c.Levels) + "\x00" + c.Metric
}

// historyStudy is what a history says of one study.
func historyStudy(r *Report) HistoryStudy {
	host := r.host
	s := HistoryStudy{ID: r.Study.ID, Name: r.Study.Name, Created: r.Study.CreatedAt.UTC(), Kernel: host.KernelRelease, Boxtax: host.Boxtax,
		Rounds: roundsText(r)}
	if d := docker.FactsOf(host); d != nil && d.ServerVersion != "" {
		s.Engine = "Docker " + d.ServerVersion
		if d.StorageDriver != "" {
			s.Engine += " (" + d.StorageDriver + ")"
		}
	}
	return s
}

// roundsText is the range of repetitions of a report's cells: "3" or "3 to 24".
func roundsText(r *Report) string {
	lo, hi := 0, 0
	for i := range r.Cells {
		n := r.Cells[i].N
		if n == 0 || r.Cells[i].Secondary {
			continue
		}
		if lo == 0 || n < lo {
			lo = n
		}
		hi = max(hi, n)
	}
	if lo == hi {
		return fmt.Sprint(lo)
	}
	return fmt.Sprintf("%d to %d", lo, hi)
}

// StudyLabel names a history's study in a table or a plot's row: its id
// and when it was made, "study 3, 2026-11-28 10:40".
func (s HistoryStudy) StudyLabel() string {
	return fmt.Sprintf("study %d, %s", s.ID, s.Created.Format("2006-01-02 15:04"))
}
