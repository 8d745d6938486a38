package report

// Contradicts tells whether two verdicts on one cell cannot both be true:
// both decided (costs, gains or no difference) and either different
// decisions (a cost against a gain, a cost against no difference) or
// intervals that do not overlap (a cost of 70 % [59, 79] against one of
// 92 % [80, 100]). An undecided verdict contradicts nothing. It is what
// bench/replicate.sh counts between studies run again on one host.
func Contradicts(a, b Verdict) bool {
	if a.Decision == VerdictUndecided || b.Decision == VerdictUndecided || a.Decision == "" || b.Decision == "" {
		return false
	}
	if a.Decision != b.Decision {
		return true
	}
	alo, ahi, aok := ends(a.OverheadCI95)
	blo, bhi, bok := ends(b.OverheadCI95)
	return aok && bok && (alo > bhi || blo > ahi)
}

// verdictKey names a verdict's cell across studies: workload, environment,
// levels and metric.
func verdictKey(v Verdict) string {
	return v.Workload + "\x00" + v.Env + "\x00" + levelsKey(v.Levels) + "\x00" + v.Metric
}

// verdictIndex is a report's verdicts by verdictKey.
func verdictIndex(r *Report) map[string]Verdict {
	out := make(map[string]Verdict, len(r.Verdicts))
	for _, v := range r.Verdicts {
		out[verdictKey(v)] = v
	}
	return out
}

// Contradiction is a cell whose verdicts in two studies of one host
// contradict each other (Contradicts): the host's state, not the
// environment, decided at least one of them.
type Contradiction struct {
	Workload string            `json:"workload"`
	Env      string            `json:"env"`
	Levels   map[string]string `json:"levels"`
	Metric   string            `json:"metric"`
	Label    string            `json:"label"`
	Row      string            `json:"-"`
	// Studies are the two studies' positions in the comparison (0 is the
	// reference, A) and Texts their verdicts as the reports say them.
	Studies [2]int    `json:"studies"`
	Texts   [2]string `json:"verdicts"`
}

// contradictions lists the cells whose verdict in each study of reps
// contradicts the reference's (reps[0]), for the studies of the
// reference's machine only: on two machines different verdicts are a
// finding, not a contradiction.
func contradictions(reps []*Report) []Contradiction {
	out := []Contradiction{}
	if len(reps) < 2 {
		return out
	}
	ref := reps[0]
	refIdx := verdictIndex(ref)
	for i, r := range reps[1:] {
		if !sameMachine(ref, r) {
			continue
		}
		idx := verdictIndex(r)
		for k := range ref.Cells { // in the table's order
			c := &ref.Cells[k]
			key := c.Workload + "\x00" + c.Env + "\x00" + levelsKey(c.Levels) + "\x00" + c.Metric
			a, okA := refIdx[key]
			b, okB := idx[key]
			if !okA || !okB || !Contradicts(a, b) {
				continue
			}
			out = append(out, Contradiction{Workload: a.Workload, Env: a.Env, Levels: a.Levels, Metric: a.Metric, Label: a.Label, Row: a.Row,
				Studies: [2]int{0, i + 1}, Texts: [2]string{a.Text, b.Text}})
		}
	}
	return out
}
