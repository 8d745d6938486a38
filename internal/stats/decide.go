package stats

import (
	"fmt"
	"math"
	"sort"
)

// Decision is what an overhead's interval lets one say about it.
type Decision int

const (
	// Undecided: the interval holds 0 and reaches beyond the equivalence
	// margin, or there is no interval at all. Neither a cost nor its
	// absence is shown.
	Undecided Decision = iota
	// Costs: the interval excludes 0; the overhead is real, in the
	// direction of its estimate.
	Costs
	// NoDifference: the whole interval lies inside ±margin; an
	// equivalence statement, not merely "not significant".
	NoDifference
)

// String is the decision as the verdict names it.
func (d Decision) String() string {
	switch d {
	case Costs:
		return "costs"
	case NoDifference:
		return "no difference"
	}
	return "undecided"
}

// MaxMoreRounds caps Verdict.MoreRounds: a cell that needs more is, for a
// user, one that this host will not decide at this effect size.
const MaxMoreRounds = 1000

// Verdict is a Decision with the figures behind it.
type Verdict struct {
	Decision Decision
	// Pct, LoPct and HiPct are the overhead and its interval in percent,
	// as OverheadResult has them.
	Pct, LoPct, HiPct float64
	// MarginPct is the equivalence margin p of "no difference beyond ±p %".
	MarginPct float64
	// N is the number of values (rounds) the interval came from: the
	// smaller of the two samples.
	N int
	// MoreRounds, for an undecided cell, is about how many further rounds
	// would likely decide it, if the spread stays as measured and the
	// interval narrows as 1/sqrt(n) and as the t quantile of its growing
	// degrees of freedom does: the fewer of the rounds that would
	// exclude 0 at the current estimate and the rounds that would bring
	// the interval within ±margin; for an interval Fieller's set leaves
	// unbounded (a baseline not yet told from zero), the rounds after
	// which it would be bounded and that narrow (roundsToBound). 0 when
	// decided; -1 when no estimate can be made (too few values for an
	// interval, a zero baseline, or the estimate sits on the margin); at
	// most MaxMoreRounds.
	MoreRounds int
	// WithinPct is the smallest margin the interval lies within,
	// max(|LoPct|, |HiPct|): what an undecided cell does show ("within
	// ±7.3 %") when the margin asked for is out of reach; NaN without an
	// interval.
	WithinPct float64
	// HostChanged reports that the first and the second half of the
	// rounds gave overheads whose intervals lie apart (RoundsResult): the
	// cell is undecided whatever its interval over all rounds says, and
	// First and Second are the halves' overheads.
	HostChanged   bool
	First, Second OverheadResult
	// Leans, for a cell an adaptive study leaves undecided (DecideFirm),
	// is the decision its 95 % interval alone would give (Costs or
	// NoDifference) when that verdict is not yet firm: a study run again
	// would likely not give it; Undecided otherwise.
	Leans Decision
}

// WithHalves is v, made undecided when r's halves lie apart: the host
// changed during the study, so no interval over all of it says what a
// repetition would find (issue 43). MoreRounds is then -1: more rounds of
// a host that changes are not shown to decide it. The adaptive study's
// rule and the report's verdict both pass through it.
func (v Verdict) WithHalves(r RoundsResult) Verdict {
	if !r.HalvesApart {
		return v
	}
	v.Decision, v.HostChanged, v.First, v.Second, v.MoreRounds, v.Leans = Undecided, true, r.First, r.Second, -1, Undecided
	return v
}

// HostChangedText says why a HostChanged verdict is undecided: "the host
// changed during the study: first half -41.0% [-44.0, -38.0], second half
// +12.0% [+9.0, +15.0]".
func (v Verdict) HostChangedText() string {
	iv := func(o OverheadResult) string {
		return fmt.Sprintf("%+.1f%% [%+.1f, %+.1f]", o.Pct, o.LoPct, o.HiPct)
	}
	return "the host changed during the study: first half " + iv(v.First) + ", second half " + iv(v.Second)
}

// Decide classifies an overhead against the equivalence margin marginPct
// (in percent, > 0). n is the number of rounds behind the interval (the
// smaller sample); it is used only for MoreRounds.
//
//   - Costs when the interval excludes 0 (r.Significant, so the same test
//     as the report's asterisk);
//   - NoDifference when LoPct >= -margin and HiPct <= margin;
//   - Undecided otherwise, including when the interval is undefined (NaN).
func Decide(r OverheadResult, n int, marginPct float64) Verdict {
	v, defined := undecided(r, n, marginPct)
	switch {
	case defined && r.Significant:
		v.Decision = Costs
	case defined && marginPct > 0 && r.LoPct >= -marginPct && r.HiPct <= marginPct:
		v.Decision = NoDifference
	default:
		v.Decision = Undecided
		v.MoreRounds = moreRounds(r, n, marginPct, defined)
	}
	return v
}

// undecided is r's verdict before a decision: its figures, the margin,
// n, and WithinPct where r has a finite interval (defined).
func undecided(r OverheadResult, n int, marginPct float64) (v Verdict, defined bool) {
	v = Verdict{Pct: r.Pct, LoPct: r.LoPct, HiPct: r.HiPct, MarginPct: marginPct, N: n, WithinPct: math.NaN()}
	defined = finiteInterval(r)
	if defined {
		v.WithinPct = math.Max(math.Abs(r.LoPct), math.Abs(r.HiPct))
	}
	return v, defined
}

// moreRounds estimates the further rounds an undecided interval needs; see
// Verdict.MoreRounds: the fewer of the rounds that would exclude 0 at the
// current estimate and the rounds that would bring it within ±margin.
func moreRounds(r OverheadResult, n int, marginPct float64, defined bool) int {
	return minRounds(roundsToExclude0(r, n, defined), roundsToFit(r, n, marginPct, defined))
}

// minRounds is the fewer of two estimates; -1 (none) gives way to the other.
func minRounds(a, b int) int {
	switch {
	case a < 0:
		return b
	case b < 0:
		return a
	}
	return min(a, b)
}

// roundsToExclude0 estimates the further rounds until the interval no
// longer reaches 0, if the estimate stays where it is; -1 without one.
func roundsToExclude0(r OverheadResult, n int, defined bool) int {
	switch {
	case math.IsNaN(r.Pct) || r.Pct == 0:
		return -1
	case !defined:
		return roundsToBound(r, n, math.Abs(r.Pct))
	}
	return roundsToWidth(r, n, math.Abs(r.Pct))
}

// roundsToFit estimates the further rounds until the interval lies within
// ±margin, if the estimate stays where it is; -1 when it cannot (the
// estimate is on or past the margin).
func roundsToFit(r OverheadResult, n int, marginPct float64, defined bool) int {
	if math.IsNaN(r.Pct) || !(marginPct > 0) {
		return -1
	}
	m := marginPct - math.Abs(r.Pct)
	switch {
	case !(m > 0):
		return -1
	case !defined:
		return roundsToBound(r, n, m)
	}
	return roundsToWidth(r, n, m)
}

// roundsToBound is roundsToWidth for an interval Fieller's set leaves
// unbounded: the baseline's mean not yet told from zero, g = t² vb / xb² >= 1
// (a noisy baseline from a few rounds: disk.seq read here, 015). With the
// means and the spread as measured, vb and vx shrink as n/m at m rounds and
// the degrees of freedom grow as halfWidthAt has them, so g falls below 1;
// the half-width is then taken as the delta method's t se(ratio) widened by
// 1/(1-g), as Fieller's own interval widens near that edge. It is the least
// number of further rounds after which that half-width is at most target;
// -1 without the variances to say (no interval was built).
func roundsToBound(r OverheadResult, n int, target float64) int {
	xb := r.BaselineMean
	if n < 2 || !(target > 0) || !(r.VarMeanB > 0) || !(r.DF > 0) || xb == 0 || !isFinite(xb) || !isFinite(r.Mean) {
		return -1
	}
	q := quantileOf(r)
	rho := r.Mean / xb
	se2 := math.Max(0, r.VarMeanX-2*rho*r.CovMeans+rho*rho*r.VarMeanB) / (xb * xb) // of the ratio, at n
	width := func(m int) float64 {
		s := float64(n) / float64(m)
		t := StudentTQuantile(q, r.DF*float64(m-1)/float64(n-1))
		g := t * t * r.VarMeanB * s / (xb * xb)
		if !(g < 1) {
			return math.Inf(1)
		}
		return 100 * t * math.Sqrt(se2*s) / (1 - g)
	}
	return leastRounds(n, target, width)
}

// roundsToWidth is the least number of further rounds m-n after which the
// half-width hw at n rounds would be at most target. The half-width is
// taken to shrink as sqrt(n/m) times t(df_m)/t(df_n) at m rounds, with the
// degrees of freedom growing as the rounds do (df_m = df (m-1)/(n-1)): at 3
// rounds the t quantile alone makes the interval 2.1 times as wide as at
// 20, so leaving it out would overstate the rounds needed about 4-fold.
// Without r.DF the quantile is taken not to change.
func roundsToWidth(r OverheadResult, n int, target float64) int {
	if n < 2 {
		return -1
	}
	hw := math.Max(r.HiPct-r.Pct, r.Pct-r.LoPct)
	if !(hw > 0) {
		return -1
	}
	return leastRounds(n, target, halfWidthAt(r, n, hw))
}

// leastRounds is the least number of further rounds m-n after which
// width(m), which decreases with m, is at most target; MaxMoreRounds when
// even that many would not do.
func leastRounds(n int, target float64, width func(m int) float64) int {
	if width(n+MaxMoreRounds) > target {
		return MaxMoreRounds
	}
	m := n + 1 + sort.Search(MaxMoreRounds, func(i int) bool { return width(n+1+i) <= target })
	return min(m-n, MaxMoreRounds)
}

// CostStopLevel is the confidence level at which an adaptive study takes a
// cost as shown (DecideToStop). Its stopping rule looks after every round,
// and with focused rounds a decided cell is not measured again, so at the
// report's 95 % a cell with no difference at all would end as a cost far
// more often than 5 % of the time: bench/seqsim measures 10 % at a CV of
// 1 % and 24 % at 3 % over rounds 3 to 30; at 99 %, 3 % and 9 %, for 0.3
// and 3 more rounds, and a real cost of 3 % is still found as often, 3
// rounds later. A constant level over the looks is Pocock's way of
// spending the error; 99 % is about his level for 10 looks (98.9 %). A
// firm verdict (Firm) asks at least this much of a cost.
const CostStopLevel = 0.99

// DecideToStop is the verdict an adaptive study's stopping rule acted on
// before firm verdicts (DecideFirm), which bench/seqsim compares with:
// no difference as Decide has it for r (at the report's level), but a
// cost only when strict, the same overhead at CostStopLevel, excludes 0
// too. A cell whose r excludes 0 and strict does not is undecided, its
// interval still r's; MoreRounds is then the fewer of the rounds until
// strict would exclude 0 and until r would fit within ±margin.
func DecideToStop(r, strict OverheadResult, n int, marginPct float64) Verdict {
	v := Decide(r, n, marginPct)
	s := Decide(strict, n, marginPct)
	switch {
	case v.Decision == NoDifference, v.Decision == Costs && s.Decision == Costs:
		return v
	case v.Decision == Costs:
		v.Decision = Undecided
	}
	v.MoreRounds = minRounds(roundsToExclude0(strict, n, finiteInterval(strict)), roundsToFit(r, n, marginPct, finiteInterval(r)))
	return v
}

// finiteInterval tells whether r has an interval with finite ends.
func finiteInterval(r OverheadResult) bool {
	return !math.IsNaN(r.LoPct) && !math.IsNaN(r.HiPct) && !math.IsInf(r.LoPct, 0) && !math.IsInf(r.HiPct, 0)
}

// halfWidthAt is the half-width hw measured at n rounds as it would be at m
// rounds with the same spread; see moreRounds.
func halfWidthAt(r OverheadResult, n int, hw float64) func(m int) float64 {
	q := quantileOf(r)
	tn := StudentTQuantile(q, r.DF)
	return func(m int) float64 {
		w := hw * math.Sqrt(float64(n)/float64(m))
		if r.DF > 0 && n > 1 && tn > 0 && !math.IsInf(tn, 0) {
			w *= StudentTQuantile(q, r.DF*float64(m-1)/float64(n-1)) / tn
		}
		return w
	}
}

// quantileOf is the t quantile's probability of r's interval, (1+level)/2,
// at 95 % when r has no level.
func quantileOf(r OverheadResult) float64 {
	level := r.Level
	if !(level > 0 && level < 1) {
		level = 0.95
	}
	return (1 + level) / 2
}
