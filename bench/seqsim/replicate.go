package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
)

// replicateTable simulates bench/replicate.sh on one cell at a time: two
// studies of the same cell, each an adaptive rule (3 whole rounds, then a
// look after every round, stopping when decided or at most rounds, the
// budget's stand-in), and compares the answers each study gives at its
// end, by two rules: before firm verdicts (a cost at 99 % to stop, the
// report's 95 % verdict as the answer) and now (the firm verdict,
// result.Overhead.Answer, both to stop and as the answer). Printed per
// scenario: how often a study decides the cell, and of the pairs in which
// either does, how many agree (the same verdict, intervals overlapping),
// decide in one only, or contradict.
func replicateTable(rng *rand.Rand, cells int, margin float64, first int, reach bool) {
	fmt.Printf("\ntwo studies of a cell: %d pairs a scenario, normal runs, margin ±%g %%, looks after rounds %d to the most\n\n", cells, margin, first)
	fmt.Printf("%6s %5s %5s  %-16s %8s %8s %8s %8s %7s\n", "d %", "cv %", "most", "answer", "decided", "agree", "one", "contra", "rounds")
	type rule struct {
		name string
		// answer is the verdict on the runs so far: the rule stops on
		// it, and it is the study's at the end.
		stop, answer func(b, x []float64) stats.Verdict
		// slack > 0: the study stops adding rounds once the cell's
		// estimate of further rounds exceeds slack times the rounds left
		// (result.Decisions.Focus's out of reach); 0: it never does.
		slack float64
		// twice: a verdict stops the study only when the look before
		// gave it too.
		twice bool
	}
	rules := []rule{
		{"95 % (before)", func(b, x []float64) stats.Verdict { return beforeFirm(b, x, margin) },
			func(b, x []float64) stats.Verdict {
				r := rounds(len(b))
				o := stats.OverheadAcrossRounds(b, r, x, r, 0.95)
				return stats.Decide(o.Overhead, len(b), margin).WithHalves(o)
			}, 0, false},
		{"firm (now)", nil, func(b, x []float64) stats.Verdict {
			r := rounds(len(b))
			return result.Compare(b, r, x, r).Answer(margin)
		}, 0, false},
	}
	firm := rules[1].answer
	if reach {
		rules = append(rules,
			rule{"firm, reach x2", nil, firm, 2, false},
			rule{"firm, reach x1", nil, firm, 1, false},
			rule{"firm, reach x.5", nil, firm, 0.5, false},
			rule{"firm, twice", nil, firm, 0, true},
			rule{"firm, twice, x1", nil, firm, 1, true})
	}
	for _, most := range []int{6, 10} {
		for _, sc := range []struct{ d, cv float64 }{
			{0, 1}, {0, 3}, {0, 6}, {1, 1}, {3, 2}, {5, 3}, {10, 10}, {-40, 25}, {60, 30},
		} {
			for _, ru := range rules {
				stop := ru.stop
				if stop == nil {
					stop = ru.answer
				}
				study := func() (stats.Verdict, int) {
					var b, x []float64
					draw := func() {
						b = append(b, 100*(1+sc.cv/100*rng.NormFloat64()))
						x = append(x, 100*(1+sc.d/100)*(1+sc.cv/100*rng.NormFloat64()))
					}
					for range first {
						draw()
					}
					prev := stats.Undecided
					for len(b) < most {
						v := stop(b, x)
						if v.Decision != stats.Undecided && (!ru.twice || v.Decision == prev) {
							break
						}
						if ru.slack > 0 && v.Decision == stats.Undecided && (v.MoreRounds < 0 || float64(v.MoreRounds) > ru.slack*float64(most-len(b))) {
							break
						}
						prev = v.Decision
						draw()
					}
					return ru.answer(b, x), len(b)
				}
				var decided, either, agree, one, contra, total int
				for range cells {
					v1, n1 := study()
					v2, n2 := study()
					total += n1 + n2
					d1, d2 := v1.Decision != stats.Undecided, v2.Decision != stats.Undecided
					if d1 {
						decided++
					}
					if d2 {
						decided++
					}
					if !d1 && !d2 {
						continue
					}
					either++
					switch compare(v1, v2) {
					case oneOnly:
						one++
					case differ, apart:
						contra++
					default:
						agree++
					}
				}
				pct := func(k, of int) float64 { return 100 * float64(k) / float64(max(of, 1)) }
				fmt.Printf("%6.1f %5.1f %5d  %-16s %7.1f%% %7.1f%% %7.1f%% %7.1f%% %7.1f\n", sc.d, sc.cv, most, ru.name,
					pct(decided, 2*cells), pct(agree, either), pct(one, either), pct(contra, either), float64(total)/float64(2*cells))
			}
		}
	}
}

// pairKind is how two studies' verdicts on a cell compare, as
// bench/replicate.sh counts them.
type pairKind int

const (
	same    pairKind = iota // both undecided, or the same verdict with overlapping intervals
	oneOnly                 // decided in one study only
	differ                  // decided in both, with different verdicts (or costs of opposite signs)
	apart                   // the same verdict, but intervals that do not overlap
)

// compare tells how the verdicts a and b of one cell compare.
func compare(a, b stats.Verdict) pairKind {
	da, db := a.Decision != stats.Undecided, b.Decision != stats.Undecided
	switch {
	case !da && !db:
		return same
	case da != db:
		return oneOnly
	case a.Decision != b.Decision || (a.Pct > 0) != (b.Pct > 0) && a.Decision == stats.Costs:
		return differ
	case a.LoPct > b.HiPct || b.LoPct > a.HiPct:
		return apart
	}
	return same
}
