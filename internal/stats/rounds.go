package stats

import (
	"math"
	"slices"
)

// The rounds of a study are its blocks in time: every cell is measured once
// per round, and the host may change between rounds (a disk's state, a
// neighbour's load, heat). Fieller's interval (Overhead) takes each run as
// independent, so when the rounds drift it is too narrow: the mean over the
// rounds of one study then varies more than the runs' spread says, and a
// second study lands outside the first's interval (issue 43). The functions
// here widen the interval by what the rounds themselves show, and compare
// the study's halves (design note 006, "Rounds as blocks").

// RoundsResult is an overhead judged across the rounds it was measured in.
type RoundsResult struct {
	// Overhead is Fieller's interval with the standard errors multiplied
	// by DriftFactor (OverheadAcrossRounds).
	Overhead OverheadResult
	// DriftFactor is how many times the variance of the mean the rounds
	// show exceeds what the runs' spread says (>= 1; DriftFactor).
	DriftFactor float64
	// First and Second are the overhead over the first and the second half
	// of the cell's rounds, each Fieller's interval of its own runs at the
	// same level; NaN when a half has fewer than 2 runs a side.
	First, Second OverheadResult
	// HalvesApart reports that First's and Second's intervals do not
	// overlap: the host changed during the study, and no interval over
	// all of it says what a repetition would find.
	HalvesApart bool
}

// MinDriftRounds is the fewest rounds from which DriftFactor is estimated:
// three blocks of three. With two blocks (4 to 8 rounds) the mean square
// between them has one degree of freedom, so the ratio is about F(1, n-1)
// where nothing drifts: above 2 in a quarter of the cells, and each such
// cell's interval widened for nothing. Two studies of a cell then agreed
// on a real cost of 40 % (cv 25 %, at most 6 rounds) in 62 % of the pairs
// that decided it, against 73 % without the factor below 9 rounds
// (bench/seqsim -replicate); the coverage under a drift of one side's
// state at 6 rounds falls from 87-93 % to 82-91 % (bench/seqsim -drift),
// which the halves (from MinHalvesRounds) and the spread between studies
// (OverheadResult.WithBetween) cover instead (docs/design/006).
const MinDriftRounds = 9

// MinHalvesRounds is the fewest rounds whose halves are compared: two a
// half.
const MinHalvesRounds = 4

// DriftFactor is the batch-means variance ratio of xs, values in round
// order: the rounds cut into B = floor(sqrt(n)) blocks of consecutive
// rounds (sizes as equal as possible), the mean square between the blocks'
// means, MSB = sum m_j (mean_j - mean)² / (B - 1), over the runs' variance
// s². Without drift both estimate the runs' variance and the ratio is about
// 1; when consecutive rounds resemble each other more than distant ones
// (drift, a step), MSB/n estimates the variance of the mean, and s²/n
// understates it by the ratio. At least 1 (a ratio below 1 is noise, not a
// reason to narrow the interval); 1 with fewer than MinDriftRounds values
// or no spread.
func DriftFactor(xs []float64) float64 {
	xs = finiteValues(xs)
	n := len(xs)
	if n < MinDriftRounds {
		return 1
	}
	mean, std := meanStd(xs)
	if !(std > 0) {
		return 1
	}
	blocks := 2 // floor(sqrt(n)), in integers
	for (blocks+1)*(blocks+1) <= n {
		blocks++
	}
	msb := 0.0
	for j := range blocks {
		lo, hi := j*n/blocks, (j+1)*n/blocks
		m, _ := meanStd(xs[lo:hi])
		msb += float64(hi-lo) * (m - mean) * (m - mean)
	}
	msb /= float64(blocks - 1)
	return math.Max(1, msb/(std*std))
}

// OverheadAcrossRounds is the overhead of x against baseline, each value
// measured in the round of the same index in xReps and bReps, with the
// interval widened by the drift between rounds: Fieller's interval
// (Overhead) with both squared standard errors multiplied by the
// DriftFactor of the paired differences x_k - r b_k of the rounds both
// were measured in (r the ratio of the means), which a drift of the host
// shared by both leaves out and a drift of either one's state keeps; with
// fewer than MinDriftRounds such rounds, each sample's own factor. The
// degrees of freedom shrink by the factor too (n/f independent values).
// The halves are compared as RoundsResult says. Values need not be in
// order; a value without a round (reps shorter than values) is taken in
// the order given.
func OverheadAcrossRounds(baseline []float64, bReps []int, x []float64, xReps []int, level float64) RoundsResult {
	b, bR := inRoundOrder(baseline, bReps)
	v, vR := inRoundOrder(x, xReps)
	fb, fx := DriftFactor(b), DriftFactor(v)
	pb, px := pairRounds(b, bR, v, vR)
	if len(pb) >= MinDriftRounds {
		mb, _ := meanStd(finiteValues(b))
		mx, _ := meanStd(finiteValues(v))
		if r := mx / mb; isFinite(r) {
			diff := make([]float64, len(pb))
			for i := range pb {
				diff[i] = px[i] - r*pb[i]
			}
			fb = DriftFactor(diff)
			fx = fb
		}
	}
	out := RoundsResult{Overhead: overhead(b, v, level, fb, fx), DriftFactor: math.Max(fb, fx)}
	out.First, out.Second, out.HalvesApart = halves(b, bR, v, vR, level)
	return out
}

// halves is the overhead over the first and the second half of x's rounds,
// each against the baseline's runs of those rounds, and whether their
// intervals lie apart.
func halves(b []float64, bR []int, v []float64, vR []int, level float64) (first, second OverheadResult, apart bool) {
	nan := math.NaN()
	first = OverheadResult{Level: level, Pct: nan, LoPct: nan, HiPct: nan, DF: nan, PValue: nan, Reason: "too few rounds to split in halves"}
	second = first
	if len(vR) != len(v) || len(bR) != len(b) || len(v) < MinHalvesRounds {
		return first, second, false
	}
	cut := vR[len(vR)/2] // the first round of the second half
	part := func(vs []float64, reps []int, late bool) []float64 {
		var out []float64
		for i, r := range reps {
			if (r >= cut) == late {
				out = append(out, vs[i])
			}
		}
		return out
	}
	first = Overhead(part(b, bR, false), part(v, vR, false), level)
	second = Overhead(part(b, bR, true), part(v, vR, true), level)
	if !finiteInterval(first) || !finiteInterval(second) {
		return first, second, false
	}
	return first, second, first.HiPct < second.LoPct || second.HiPct < first.LoPct
}

// inRoundOrder sorts values by their rounds (stable); without a round for
// every value it returns them as given, with nil rounds.
func inRoundOrder(vs []float64, reps []int) ([]float64, []int) {
	if len(reps) != len(vs) {
		return vs, nil
	}
	idx := make([]int, len(vs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return reps[a] - reps[b] })
	outV, outR := make([]float64, len(vs)), make([]int, len(vs))
	for i, j := range idx {
		outV[i], outR[i] = vs[j], reps[j]
	}
	return outV, outR
}

// pairRounds pairs each finite value of v with the baseline's finite value
// of the same round, in v's order.
func pairRounds(b []float64, bR []int, v []float64, vR []int) (pb, pv []float64) {
	if bR == nil || vR == nil {
		return nil, nil
	}
	of := map[int]float64{}
	for i, r := range bR {
		if isFinite(b[i]) {
			of[r] = b[i]
		}
	}
	for i, r := range vR {
		if bv, ok := of[r]; ok && isFinite(v[i]) {
			pb, pv = append(pb, bv), append(pv, v[i])
		}
	}
	return pb, pv
}
