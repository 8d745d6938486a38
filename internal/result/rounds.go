package result

import "github.com/boxtax/boxtax/internal/store"

// PlannedRounds are the measured rounds each cell (by key) is planned
// in, whatever became of its runs: every round, but in an adaptive
// study's focused rounds, which leave decided cells out.
func PlannedRounds(runs []store.Run) map[string]map[int]bool {
	out := map[string]map[int]bool{}
	for _, run := range runs {
		if run.Warmup {
			continue
		}
		if out[run.CellKey] == nil {
			out[run.CellKey] = map[int]bool{}
		}
		out[run.CellKey][run.Rep] = true
	}
	return out
}

// MeasuredRounds counts the measured rounds planned among runs.
func MeasuredRounds(runs []store.Run) int {
	n := 0
	for _, run := range runs {
		if !run.Warmup && run.Rep+1 > n {
			n = run.Rep + 1
		}
	}
	return n
}

// FewestRounds is the fewest measured rounds any cell is planned in
// (planned as PlannedRounds has it): less than MeasuredRounds once an
// adaptive study's focused rounds have left decided cells out.
func FewestRounds(planned map[string]map[int]bool) int {
	fewest := 0
	for _, rounds := range planned {
		if fewest == 0 || len(rounds) < fewest {
			fewest = len(rounds)
		}
	}
	return fewest
}

// InRoundsWith are the values among vs (measured in rounds reps) of the
// given rounds, each with its round: a cell is compared with its
// baseline's runs of the rounds the cell is planned in, so that a cell
// that focused rounds left out is not set against the baseline's later
// runs, which met a later host. It is vs itself when every value is of
// those rounds (always, in a study of whole rounds) or when rounds is nil.
func InRoundsWith(vs []float64, reps []int, rounds map[int]bool) ([]float64, []int) {
	if rounds == nil || len(reps) != len(vs) {
		return vs, reps
	}
	var out []float64
	var outReps []int
	for i, r := range reps {
		if rounds[r] {
			out, outReps = append(out, vs[i]), append(outReps, r)
		}
	}
	if len(out) == len(vs) {
		return vs, reps
	}
	return out, outReps
}

// PairByRound pairs each value of xs with the baseline's value of the same
// round (bs and xs measured in rounds bReps and xReps); values whose round
// the baseline lacks are left out.
func PairByRound(bs []float64, bReps []int, xs []float64, xReps []int) (b, x []float64) {
	of := map[int]float64{}
	for i, r := range bReps {
		of[r] = bs[i]
	}
	for i, r := range xReps {
		if v, ok := of[r]; ok {
			b, x = append(b, v), append(x, xs[i])
		}
	}
	return b, x
}
