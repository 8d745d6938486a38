package stats

import "math"

// Firm verdicts (issue 43, design note 006 "Firm verdicts"). A 95 %
// interval that just excludes 0 says the overhead is not 0; it does not
// say that a study run again would show it: at an estimate just past the
// interval's end, a second study of the same size lands on either side of
// it about as often (Goodman 1992, "A comment on replication, p-values and
// evidence"). A verdict a user acts on should be one the next study
// confirms, so an adaptive study decides a cell only when its verdict is
// firm: when a study run again would show the same verdict at 95 % with
// probability ReplicationProbability, by the estimate and spread measured.
//
// Run again, the study's estimate d' differs from this one's d by the
// errors of both, with sd √2 se (se the standard error of the estimate,
// with the spread between studies in it when there are earlier studies of
// the host), Student-distributed on the interval's degrees of freedom
// since se is itself estimated. The replicate shows a cost where its own
// interval d' ± t se lies beyond ±margin, and no difference where it lies
// within; with probability q it does when d ± (t + t_q √2) se does. That
// widened interval is the firm one (Firm), and DecideFirm decides by it.

// ReplicationProbability is q: a firm verdict is one whose study run
// again would show it at 95 % with about this probability (its firm
// verdict, less often: bench/seqsim -replicate and bench/replicate.sh
// measure how often two studies agree; design note 006).
const ReplicationProbability = 0.9

// Firm is r's firm interval: each side's half-width h widened to h t'/t,
// where t is the quantile r's interval used and t' = t + t_q √2
// (ReplicationProbability), or the quantile at CostStopLevel when that is
// larger (at 2 or 3 degrees of freedom): the stopping rule looks after
// every round, and no firm cost may be shown where the rule's 99 % interval
// does not show one. The lower end stays at or above -100 % where r's did.
// An unbounded r (a baseline not yet told from 0) stays unbounded. Level is the level at which a Student interval on r's degrees of freedom
// has the quantile t', so that the rounds a firm verdict needs are
// estimated as for any interval (Decide's MoreRounds). r as it is without
// a finite interval.
func (r OverheadResult) Firm() OverheadResult {
	t := r.quantile()
	if !(t > 0) || math.IsInf(t, 0) {
		return r
	}
	df := r.DF
	if !(df > 0) || math.IsInf(df, 0) {
		df = 1e6
	}
	t2 := math.Max(t+StudentTQuantile(ReplicationProbability, df)*math.Sqrt2, StudentTQuantile((1+CostStopLevel)/2, df))
	r.Level = 2*StudentTCDF(t2, df) - 1
	if !finiteInterval(r) || !isFinite(r.Pct) {
		return r // unbounded: the level alone, for the rounds that would bound it
	}
	k := t2 / t
	lo := r.Pct - (r.Pct-r.LoPct)*k
	if r.LoPct >= MinPct && (r.LoBounded || r.Mean >= 0 && r.BaselineMean > 0) {
		lo = math.Max(lo, MinPct)
	}
	r.LoPct, r.HiPct = lo, r.Pct+(r.HiPct-r.Pct)*k
	r.Significant = r.LoPct > 0 || r.HiPct < 0
	return r
}

// DecideFirm is the verdict an adaptive study gives: r.Firm()'s against
// the margin, with r's estimate and interval, the 95 % ones a user reads. Against the margin as the region
// of practical equivalence (Kruschke's, "Rejecting or accepting parameter
// values in Bayesian estimation", 2018): no difference when the interval
// lies within ±margin, even where it excludes 0; a cost (or a gain) only
// when it lies wholly beyond ±margin; undecided otherwise. A difference
// smaller than the margin the study asked for is one it called
// negligible, and such small differences are the verdicts that flip
// between studies (issue 43: cpu.linpack, a gain of +1.7 % [0.5, 2.9]
// in one study, no difference [-1.5, 1.5] in the next). An undecided
// cell whose r alone would decide by the same rule says so in Leans; its
// MoreRounds is the rounds until firm would likely decide it.
func DecideFirm(r OverheadResult, n int, marginPct float64) Verdict {
	v := againstMargin(r.Firm(), n, marginPct)
	plain := againstMargin(r, n, marginPct)
	v.Pct, v.LoPct, v.HiPct, v.WithinPct = plain.Pct, plain.LoPct, plain.HiPct, plain.WithinPct
	if v.Decision == Undecided {
		v.Leans = plain.Decision
	}
	return v
}

// againstMargin decides r against ±marginPct as DecideFirm does: no
// difference within it, a cost wholly beyond it, else undecided with the
// fewer of the rounds until r would fit within ±margin and until it would
// clear it, at the estimate measured.
func againstMargin(r OverheadResult, n int, marginPct float64) Verdict {
	m := math.Max(marginPct, 0)
	v, defined := undecided(r, n, marginPct)
	switch {
	case defined && m > 0 && r.LoPct >= -m && r.HiPct <= m:
		v.Decision = NoDifference
	case defined && (r.LoPct > m || r.HiPct < -m):
		v.Decision = Costs
	default:
		v.MoreRounds = minRounds(roundsToClear(r, n, m, defined), roundsToFit(r, n, marginPct, defined))
	}
	return v
}

// roundsToClear estimates the further rounds until the interval lies
// wholly beyond ±margin, if the estimate stays where it is; -1 when it
// cannot (the estimate is within the margin).
func roundsToClear(r OverheadResult, n int, marginPct float64, defined bool) int {
	target := math.Abs(r.Pct) - marginPct
	switch {
	case math.IsNaN(r.Pct) || !(target > 0):
		return -1
	case !defined:
		return roundsToBound(r, n, target)
	}
	return roundsToWidth(r, n, target)
}
