package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boxtax/boxtax/internal/stats"
)

// drift is a way the host changes between rounds: it returns, for n
// rounds, the factors by which the baseline's and the container's runs of
// each round are multiplied (1 without drift).
type drift struct {
	name string
	path func(rng *rand.Rand, n int) (b, x []float64)
}

// ar1 is a stationary AR(1) path of n steps with autocorrelation phi and
// standard deviation sd (a fraction), as factors 1+u.
func ar1(rng *rand.Rand, n int, phi, sd float64) []float64 {
	out := make([]float64, n)
	u := sd * rng.NormFloat64()
	for i := range out {
		out[i] = 1 + u
		u = phi*u + sd*math.Sqrt(1-phi*phi)*rng.NormFloat64()
	}
	return out
}

func ones(n int) []float64 {
	out := make([]float64, n)
	for i := range out {
		out[i] = 1
	}
	return out
}

// drifts are the scenarios: sizes are relative to the runs' cv (in %).
func drifts(cv float64) []drift {
	s := cv / 100
	return []drift{
		{"none", func(_ *rand.Rand, n int) ([]float64, []float64) { return ones(n), ones(n) }},
		{"host, shared AR(0.9) 5x cv", func(rng *rand.Rand, n int) ([]float64, []float64) {
			w := ar1(rng, n, 0.9, 5*s)
			return w, w
		}},
		{"baseline's state AR(0.8) 1x cv", func(rng *rand.Rand, n int) ([]float64, []float64) { return ar1(rng, n, 0.8, s), ones(n) }},
		{"baseline's state AR(0.5) 1x cv", func(rng *rand.Rand, n int) ([]float64, []float64) { return ar1(rng, n, 0.5, s), ones(n) }},
		{"container's state step ±1.5x cv", func(rng *rand.Rand, n int) ([]float64, []float64) {
			x, at, sign := ones(n), rng.IntN(n), float64(1-2*rng.IntN(2))
			for i := at; i < n; i++ {
				x[i] = 1 + sign*1.5*s
			}
			for i := range x { // a step at a random round has mean 0 over studies
				x[i] -= sign * 1.5 * s * float64(n-at) / float64(n)
				_ = i
			}
			return ones(n), x
		}},
	}
}

// driftTable prints, for fixed counts of rounds, how often the overhead's
// 95 % interval covers the true overhead (the host's state averaged over
// studies) and how often a cost is declared, by Fieller's interval of
// independent runs (before) and the interval across rounds (now), the
// latter with the halves' check, which withdraws a verdict whose halves
// lie apart.
func driftTable(rng *rand.Rand, cells int, margin float64) {
	fmt.Printf("\ncoverage under drift: %d cells a scenario, the true overhead d over studies; the verdict at 95 %%, margin ±%g %%\n\n", cells, margin)
	fmt.Printf("%5s %4s %3s  %-33s %-26s %8s %7s %7s %9s\n", "d %", "cv", "n", "drift", "interval", "covers", "cost", "none", "withdrawn")
	for _, sc := range []struct{ d, cv float64 }{{0, 2}, {3, 2}} {
		for _, n := range []int{6, 10, 20} {
			for _, dr := range drifts(sc.cv) {
				var fCover, fCost, fNone, aCover, aCost, aNone, hCover, hCost, hNone, withdrawn int
				for range cells {
					fb, fx := dr.path(rng, n)
					b, x, reps := make([]float64, n), make([]float64, n), make([]int, n)
					for k := range n {
						reps[k] = k
						b[k] = 100 * fb[k] * (1 + sc.cv/100*rng.NormFloat64())
						x[k] = 100 * (1 + sc.d/100) * fx[k] * (1 + sc.cv/100*rng.NormFloat64())
					}
					tally := func(o stats.OverheadResult, cover, cost, none *int) {
						if o.LoPct <= sc.d && sc.d <= o.HiPct {
							*cover++
						}
						switch stats.Decide(o, n, margin).Decision {
						case stats.Costs:
							*cost++
						case stats.NoDifference:
							*none++
						}
					}
					tally(stats.Overhead(b, x, 0.95), &fCover, &fCost, &fNone)
					ar := stats.OverheadAcrossRounds(b, reps, x, reps, 0.95)
					tally(ar.Overhead, &aCover, &aCost, &aNone)
					if ar.HalvesApart {
						withdrawn++
						hCover++ // no interval is claimed
					} else {
						tally(ar.Overhead, &hCover, &hCost, &hNone)
					}
				}
				pct := func(k int) float64 { return 100 * float64(k) / float64(cells) }
				fmt.Printf("%5.1f %4.1f %3d  %-33s %-26s %7.1f%% %6.1f%% %6.1f%%\n", sc.d, sc.cv, n, dr.name, "Fieller, runs (before)", pct(fCover), pct(fCost), pct(fNone))
				fmt.Printf("%5s %4s %3s  %-33s %-26s %7.1f%% %6.1f%% %6.1f%%\n", "", "", "", "", "across rounds", pct(aCover), pct(aCost), pct(aNone))
				fmt.Printf("%5s %4s %3s  %-33s %-26s %7.1f%% %6.1f%% %6.1f%% %8.1f%%\n", "", "", "", "", "across rounds + halves", pct(hCover), pct(hCost), pct(hNone), pct(withdrawn))
			}
		}
	}
}

// studiesTable prints how often the interval of the last of k+1 studies
// of one host covers the true overhead (the host's state averaged over
// studies) when each study's rounds follow their own path of the drift:
// the study's own interval across rounds with the halves' check (as the
// report has it for a first study), then the same widened by the spread
// between the k+1 studies (stats.BetweenStudies, as the report has it when
// its database holds k earlier studies of the host). Decided: a cost (99 %
// interval excludes 0, the stopping rule's) or no difference.
func studiesTable(rng *rand.Rand, cells int, margin float64) {
	fmt.Printf("\ncoverage between studies: %d cells a scenario; each of k+1 studies draws its own path; the last study's 95 %% interval\n\n", cells)
	fmt.Printf("%5s %4s %3s  %-33s %2s  %-28s %8s %7s %7s\n", "d %", "cv", "n", "drift", "k", "interval", "covers", "cost", "none")
	for _, sc := range []struct{ d, cv float64 }{{0, 2}, {3, 2}} {
		for _, n := range []int{6, 10, 20} {
			for _, dr := range drifts(sc.cv) {
				for _, k := range []int{1, 2, 4} {
					var own, wide [3]int // covers, cost, none
					for range cells {
						var es []stats.Estimate
						var last, lastStrict stats.RoundsResult
						for range k + 1 {
							fb, fx := dr.path(rng, n)
							b, x, reps := make([]float64, n), make([]float64, n), make([]int, n)
							for j := range n {
								reps[j] = j
								b[j] = 100 * fb[j] * (1 + sc.cv/100*rng.NormFloat64())
								x[j] = 100 * (1 + sc.d/100) * fx[j] * (1 + sc.cv/100*rng.NormFloat64())
							}
							last = stats.OverheadAcrossRounds(b, reps, x, reps, 0.95)
							lastStrict = stats.OverheadAcrossRounds(b, reps, x, reps, stats.CostStopLevel)
							if e, ok := stats.EstimateOf(last.Overhead); ok {
								es = append(es, e)
							}
						}
						tau2 := stats.BetweenStudies(es)
						tally := func(o, strict stats.OverheadResult, t *[3]int) {
							v := stats.DecideToStop(o, strict, n, margin).WithHalves(last)
							if v.HostChanged || o.LoPct <= sc.d && sc.d <= o.HiPct {
								t[0]++
							}
							switch v.Decision {
							case stats.Costs:
								t[1]++
							case stats.NoDifference:
								t[2]++
							}
						}
						tally(last.Overhead, lastStrict.Overhead, &own)
						tally(last.Overhead.WithBetween(tau2), lastStrict.Overhead.WithBetween(tau2), &wide)
					}
					pct := func(c int) float64 { return 100 * float64(c) / float64(cells) }
					fmt.Printf("%5.1f %4.1f %3d  %-33s %2d  %-28s %7.1f%% %6.1f%% %6.1f%%\n", sc.d, sc.cv, n, dr.name, k, "this study's own", pct(own[0]), pct(own[1]), pct(own[2]))
					fmt.Printf("%5s %4s %3s  %-33s %2s  %-28s %7.1f%% %6.1f%% %6.1f%%\n", "", "", "", "", "", "with the studies' spread", pct(wide[0]), pct(wide[1]), pct(wide[2]))
				}
			}
		}
	}
}
