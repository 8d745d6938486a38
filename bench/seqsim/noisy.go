package main

import (
	"fmt"
	"math"
	"math/rand/v2"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
)

// lognormal draws a positive value with the given mean and coefficient of
// variation (cv, a fraction): a disk's throughput from a hypervisor's cache
// is positive and skewed, and at a cv of 60 % a normal draw would be
// negative one time in 50.
func lognormal(rng *rand.Rand, mean, cv float64) float64 {
	s2 := math.Log(1 + cv*cv)
	return mean * math.Exp(math.Sqrt(s2)*rng.NormFloat64()-s2/2)
}

// noisyTable simulates the adaptive rule on cells whose baseline is too
// noisy at the first rounds for Fieller's interval to be bounded (disk.seq
// read on this project's VM: the native read's cv 40-90 % over 3 rounds,
// the container's about 10 %, docs/design/015). The rule measures a cell
// again only while it is undecided and its estimate of further rounds
// (stats.Verdict.MoreRounds) is positive and within result.FocusSlack
// times the rounds left, as Decisions.Focus chooses; "before" is the rule
// when a cell without a bounded interval had no estimate (-1) and so was
// never measured again. Printed: how often the report's 95 % interval
// (across rounds, at the rounds the cell stopped) is bounded, how often a
// bounded one covers the true overhead, the verdicts, and the mean rounds.
// normal draws the runs from a normal distribution instead (a negative
// run now and then at a cv of 60 %), to tell what the skew costs the
// coverage from what stopping at the first bounded interval does.
func noisyTable(rng *rand.Rand, cells int, margin float64, first, most int, normal bool) {
	run, runs := lognormal, "lognormal"
	if normal {
		run, runs = func(rng *rand.Rand, mean, cv float64) float64 { return mean * (1 + cv*rng.NormFloat64()) }, "normal"
	}
	fmt.Printf("\nnoisy baselines: %d cells a scenario, %s runs, margin ±%g %%, looks after rounds %d to %d\n\n", cells, runs, margin, first, most)
	fmt.Printf("%6s %5s %5s  %-8s %8s %8s %7s %7s %9s %7s\n", "d %", "cv b", "cv x", "rule", "bounded", "covers", "cost", "none", "undecided", "rounds")
	for _, sc := range []struct{ d, cvB, cvX float64 }{
		{-88, 60, 10}, {-88, 90, 10}, {-50, 60, 10}, {-20, 60, 10}, {0, 60, 10}, {0, 60, 60}, {10, 40, 10},
	} {
		for _, before := range []bool{true, false} {
			var bounded, covers, cost, none, und, total int
			for range cells {
				var b, x []float64
				draw := func() {
					b = append(b, run(rng, 100, sc.cvB/100))
					x = append(x, run(rng, 100*(1+sc.d/100), sc.cvX/100))
				}
				for range first {
					draw()
				}
				for len(b) < most {
					r := rounds(len(b))
					o := result.Compare(b, r, x, r)
					v := o.Answer(margin)
					if v.Decision != stats.Undecided || v.MoreRounds <= 0 || v.MoreRounds > result.FocusSlack*(most-len(b)) {
						break
					}
					if before && math.IsNaN(o.Across.Overhead.LoPct) {
						break // no interval: no estimate, before
					}
					draw()
				}
				r := rounds(len(b))
				ar := stats.OverheadAcrossRounds(b, r, x, r, 0.95)
				if !math.IsNaN(ar.Overhead.LoPct) && !math.IsNaN(ar.Overhead.HiPct) {
					bounded++
					if ar.Overhead.LoPct <= sc.d && sc.d <= ar.Overhead.HiPct {
						covers++
					}
				}
				switch stats.Decide(ar.Overhead, len(b), margin).WithHalves(ar).Decision {
				case stats.Costs:
					cost++
				case stats.NoDifference:
					none++
				default:
					und++
				}
				total += len(b)
			}
			name := "now"
			if before {
				name = "before"
			}
			pct := func(k, of int) float64 { return 100 * float64(k) / float64(max(of, 1)) }
			fmt.Printf("%6.1f %5.0f %5.0f  %-8s %7.1f%% %7.1f%% %6.1f%% %6.1f%% %8.1f%% %7.1f\n", sc.d, sc.cvB, sc.cvX, name,
				pct(bounded, cells), pct(covers, bounded), pct(cost, cells), pct(none, cells), pct(und, cells), float64(total)/float64(cells))
		}
	}
}
