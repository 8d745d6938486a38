package main

import (
	"fmt"
	"math/rand/v2"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
)

// replicateTable simulates bench/replicate.sh on one cell at a time: two
// studies of the same cell, each the adaptive rule (3 whole rounds, then
// a look after every round, stopping when decided or at most rounds, the
// budget's stand-in), and compares the answers each study gives at its
// end by two readings: the stopping rule's own (a cost at 99 %,
// result.Overhead.ToStop) and the report's (stats.Decide at 95 %, the
// halves). Printed per scenario: how often a study decides the cell, and
// of the pairs in which either does, how many agree (the same verdict,
// intervals overlapping), decide in one only, or contradict.
func replicateTable(rng *rand.Rand, cells int, margin float64, first int) {
	fmt.Printf("\ntwo studies of a cell: %d pairs a scenario, normal runs, margin ±%g %%, looks after rounds %d to the most\n\n", cells, margin, first)
	fmt.Printf("%6s %5s %5s  %-14s %8s %8s %8s %8s\n", "d %", "cv %", "most", "answer", "decided", "agree", "one", "contra")
	type answer struct {
		name  string
		final func(o result.Overhead, n int) stats.Verdict
	}
	answers := []answer{
		{"rule (99 %)", func(o result.Overhead, n int) stats.Verdict { return o.ToStop(margin) }},
		{"report (95 %)", func(o result.Overhead, n int) stats.Verdict {
			return stats.Decide(o.Across.Overhead, n, margin).WithHalves(o.Across)
		}},
	}
	for _, most := range []int{6, 10} {
		for _, sc := range []struct{ d, cv float64 }{
			{0, 1}, {0, 3}, {0, 6}, {3, 2}, {5, 3}, {10, 10}, {-40, 25}, {60, 30},
		} {
			study := func() result.Overhead {
				var b, x []float64
				draw := func() {
					b = append(b, 100*(1+sc.cv/100*rng.NormFloat64()))
					x = append(x, 100*(1+sc.d/100)*(1+sc.cv/100*rng.NormFloat64()))
				}
				for range first {
					draw()
				}
				for {
					r := rounds(len(b))
					o := result.Compare(b, r, x, r)
					if v := o.ToStop(margin); v.Decision != stats.Undecided || len(b) >= most {
						return o
					}
					draw()
				}
			}
			type tally struct{ decided, either, agree, one, contra int }
			ts := make([]tally, len(answers))
			for range cells {
				o1, o2 := study(), study()
				for i, a := range answers {
					v1, v2 := a.final(o1, o1.N), a.final(o2, o2.N)
					d1, d2 := v1.Decision != stats.Undecided, v2.Decision != stats.Undecided
					t := &ts[i]
					if d1 {
						t.decided++
					}
					if d2 {
						t.decided++
					}
					if !d1 && !d2 {
						continue
					}
					t.either++
					switch {
					case d1 != d2:
						t.one++
					case v1.Decision != v2.Decision || (v1.Pct > 0) != (v2.Pct > 0) && v1.Decision == stats.Costs ||
						v1.LoPct > v2.HiPct || v2.LoPct > v1.HiPct:
						t.contra++
					default:
						t.agree++
					}
				}
			}
			for i, a := range answers {
				t := ts[i]
				pct := func(k, of int) float64 { return 100 * float64(k) / float64(max(of, 1)) }
				fmt.Printf("%6.1f %5.1f %5d  %-14s %7.1f%% %7.1f%% %7.1f%% %7.1f%%\n", sc.d, sc.cv, most, a.name,
					pct(t.decided, 2*cells), pct(t.agree, t.either), pct(t.one, t.either), pct(t.contra, t.either))
			}
		}
	}
}
