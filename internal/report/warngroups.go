package report

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// WarningGroup is one cause a reader must know of, said once, with the
// cells it touches: the storage a disk workload wrote on, another note of
// the workloads, a busy host, noisy cells, outliers.
type WarningGroup struct {
	Kind  string   `json:"kind"`  // storage, note, busy, noisy, outlier
	Cells []string `json:"cells"` // "workload @ env" (storage, note, busy) or "row @ env label" (noisy, outlier)
	Text  string   `json:"text"`
}

// MaxWarningLines is how many warning groups the terminal table prints;
// the rest are counted in one line that names where to read them.
const MaxWarningLines = 5

// groupWarnings sets WarningGroups and Warnings from the warnings of the
// cells: each cause once, storage first, then the busy host, the noisy
// cells, the workloads' other notes and the outliers.
func (r *Report) groupWarnings() {
	r.WarningGroups = append(r.noteGroups(WarnStorage), r.busyGroup()...)
	r.WarningGroups = append(r.WarningGroups, r.noisyGroup()...)
	r.WarningGroups = append(r.WarningGroups, r.noteGroups(WarnNote)...)
	r.WarningGroups = append(r.WarningGroups, r.outlierGroup()...)
	r.Warnings = []string{}
	for _, g := range r.WarningGroups {
		r.Warnings = append(r.Warnings, g.Text)
	}
}

// noteGroups are the notes of one kind the workloads made, a group per
// message naming the cells that said it.
func (r *Report) noteGroups(kind string) []WarningGroup {
	var messages []string
	cells := map[string][]string{}
	for _, w := range r.warns {
		if w.Kind != kind {
			continue
		}
		if _, ok := cells[w.Message]; !ok {
			messages = append(messages, w.Message)
		}
		cells[w.Message] = append(cells[w.Message], w.Subject)
	}
	out := []WarningGroup{}
	for _, m := range messages {
		out = append(out, WarningGroup{Kind: kind, Cells: cells[m], Text: fmt.Sprintf("%s: %s: %s", kind, compactCells(cells[m]), m)})
	}
	return out
}

// busyGroup counts the measured runs that started on a busy host.
func (r *Report) busyGroup() []WarningGroup {
	g := WarningGroup{Kind: WarnBusy}
	runs, most, mostRuns := 0, "", 0
	for _, w := range r.warns {
		if w.Kind != WarnBusy {
			continue
		}
		g.Cells = append(g.Cells, w.Subject)
		runs += w.Runs
		if w.Runs > mostRuns {
			most, mostRuns = w.Subject, w.Runs
		}
	}
	if runs == 0 {
		return nil
	}
	g.Text = fmt.Sprintf("busy host: %d measured run(s) in %d cell(s) started while another program kept the CPU busy (waiting for quiet, --settle, ran out): expect noise there; most in %s (%d)",
		runs, len(g.Cells), most, mostRuns)
	return []WarningGroup{g}
}

// noisyGroup is the cells marked ~ in the table, in one line.
func (r *Report) noisyGroup() []WarningGroup {
	g := WarningGroup{Kind: WarnNoisy}
	primary, widest, widestCV := 0, "", 0.0
	for i := range r.Cells {
		c := &r.Cells[i]
		if c.Secondary {
			continue
		}
		primary++
		if !c.Noisy() {
			continue
		}
		name := fmt.Sprintf("%s @ %s %s", RowName(c, r.factors), c.Env, c.Label)
		g.Cells = append(g.Cells, name)
		if cv := c.Std / math.Abs(c.Mean) * 100; cv > widestCV {
			widest, widestCV = fmt.Sprintf("%s (sd %.0f%% of the mean, min %s, max %s)", name, cv, FmtValue(c.Min), FmtValue(c.Max)), cv
		}
	}
	if len(g.Cells) == 0 {
		return nil
	}
	g.Text = fmt.Sprintf("noisy: %d of %d cells (marked ~) spread by more than %.0f%% of their mean, widest %s: more repetitions (--reps) or a quieter host would help",
		len(g.Cells), primary, NoisyCV*100, widest)
	return []WarningGroup{g}
}

// outlierGroup is the outlier runs, in one line: the first cell's in
// full, the others counted.
func (r *Report) outlierGroup() []WarningGroup {
	g := WarningGroup{Kind: WarnOutlier}
	runs, first := 0, ""
	for _, w := range r.warns {
		if w.Kind != WarnOutlier {
			continue
		}
		if first == "" {
			first = w.Text
		}
		g.Cells = append(g.Cells, w.Subject)
		runs += w.Runs
	}
	if runs == 0 {
		return nil
	}
	g.Text = "outliers: " + first
	if len(g.Cells) > 1 {
		g.Text = fmt.Sprintf("outliers: %d run(s) in %d cells (modified z-score above %.1f); the first: %s", runs, len(g.Cells), OutlierZ, first)
	}
	return []WarningGroup{g}
}

// compactCells names "workload @ env" cells in one phrase: "disk.seq,
// disk.rand @ docker-bridge, docker-host" when every environment has the
// same workloads, else each environment's: "disk.seq @ docker-bridge;
// disk.rand @ docker-host".
func compactCells(subjects []string) string {
	var envs []string
	byEnv := map[string][]string{}
	for _, s := range subjects {
		wl, env, ok := strings.Cut(s, " @ ")
		if !ok {
			return strings.Join(subjects, ", ")
		}
		if _, seen := byEnv[env]; !seen {
			envs = append(envs, env)
		}
		if !slices.Contains(byEnv[env], wl) {
			byEnv[env] = append(byEnv[env], wl)
		}
	}
	same := true
	for _, e := range envs {
		same = same && slices.Equal(byEnv[e], byEnv[envs[0]])
	}
	if same && len(envs) > 0 {
		return strings.Join(byEnv[envs[0]], ", ") + " @ " + strings.Join(envs, ", ")
	}
	parts := make([]string, len(envs))
	for i, e := range envs {
		parts[i] = strings.Join(byEnv[e], ", ") + " @ " + e
	}
	return strings.Join(parts, "; ")
}
