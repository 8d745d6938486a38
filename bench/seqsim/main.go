// Command seqsim measures, by simulation, how often an adaptive study's
// verdicts are wrong, against verdicts taken once at a fixed count: the
// price of looking after every round (issue 28, docs/design/006), and
// what stats.DecideToStop (a cost only when the 99 % interval excludes 0)
// buys back.
//
// Each simulated cell has a baseline and a container whose true overhead
// is d % and whose runs spread normally with a coefficient of variation
// cv %. The adaptive rules are the study's: 3 whole rounds, then one
// round at a time, judged after each at the margin (2 %), stopping when
// decided or at the maximum (30 rounds); with focused rounds a decided
// cell is never measured again, so its first decision is its last. The
// verdict printed is the report's (stats.Decide at 95 %) on the runs the
// rule stopped at. The fixed rules judge once after n rounds. Printed per
// scenario: how often each ends in a cost, in no difference, or undecided,
// and its mean rounds. Wrong answers: a cost when d = 0 (5 % by design at
// one look) and no difference when |d| is past the margin.
//
//	go run ./bench/seqsim                  # 4000 cells a scenario, about 10 s
//	go run ./bench/seqsim -cells 20000
//	go run ./bench/seqsim -noisy           # baselines too noisy at first for a bounded interval
//	go run ./bench/seqsim -noisy -normal   # the same with normal runs
//	go run ./bench/seqsim -replicate       # two studies of each cell: do their answers agree?
//	go run ./bench/seqsim -study 200 -v    # pairs of whole default studies within the budget, about 35 s
//	go run ./bench/seqsim -study 200 -cv write_iops=6   # ... were disk.rand's writes in the containers as steady as natively
package main

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/stats"
)

func main() {
	cells := flag.Int("cells", 4000, "simulated cells per scenario")
	margin := flag.Float64("margin", 2, "the margin p of no difference beyond ±p %")
	first := flag.Int("first", 3, "whole rounds before the first look")
	most := flag.Int("max", 30, "the most rounds (max_repetitions)")
	driftOnly := flag.Bool("drift", false, "only the coverage under drift (docs/design/006, rounds as blocks)")
	studiesOnly := flag.Bool("studies", false, "only the coverage between studies of one host (docs/design/006, between studies)")
	noisyOnly := flag.Bool("noisy", false, "only the noisy baselines, whose first intervals are unbounded (docs/design/006, issue 43)")
	replicate := flag.Bool("replicate", false, "only two studies of each cell: how often their answers agree (bench/replicate.sh's question, issue 43)")
	reach := flag.Bool("reach", false, "with -replicate: also the firm rule with the study's out of reach stop (slack 2, 1, 0.5) and with a verdict asked at two looks in a row")
	studyPairs := flag.Int("study", 0, "simulate this many pairs of whole default studies, judged by the real rule (result.Decide and Focus within the budget, -margin, -first, -max), and count how they agree as bench/replicate.sh does")
	budget := flag.Float64("budget", 300, "with -study: each study's budget in seconds")
	warmup := flag.Int("warmup", 1, "with -study: warm-up rounds before the measured ones, charged to the budget (the default study's 1)")
	far := flag.Float64("far", 0, "with -study: the probability that a run is far off (all its metrics 1.4 or 1/1.4 times their means)")
	cv := flag.String("cv", "", "with -study: a metric's coefficient of variation in both containers, METRIC=PERCENT (write_iops=6)")
	more := flag.String("secs", "", "with -study: seconds added to a workload's runs in every environment, WORKLOAD=SECONDS (disk.rand=4: a longer measurement)")
	verbose := flag.Bool("v", false, "with -study: the runs of each run cell, and the cells decided in one study of a pair only or contradicting")
	normal := flag.Bool("normal", false, "with -noisy: normal runs instead of lognormal ones, to tell the skew's part in the coverage from the rule's")
	flag.Parse()
	rng := rand.New(rand.NewPCG(1, 2))
	if *studyPairs > 0 {
		cfg := simConfig{margin: *margin, first: *first, most: *most, budget: *budget, far: *far, warmup: *warmup}
		if err := studyTable(rng, cfg, *studyPairs, *cv, *more, *verbose); err != nil {
			fmt.Fprintln(os.Stderr, "seqsim:", err)
			os.Exit(2)
		}
		return
	}
	if *studiesOnly {
		studiesTable(rng, *cells, *margin)
		return
	}
	if *replicate {
		replicateTable(rng, *cells, *margin, *first, *reach)
		return
	}
	if *noisyOnly {
		noisyTable(rng, *cells, *margin, *first, *most, *normal)
		return
	}
	if *driftOnly {
		driftTable(rng, *cells, *margin)
		return
	}
	fmt.Printf("%d cells a scenario, margin ±%g %%, looks after rounds %d to %d; the verdict is the report's (95 %%) where the rule stopped\n\n", *cells, *margin, *first, *most)
	fmt.Printf("%6s %5s  %-34s %7s %7s %9s %7s\n", "d %", "cv %", "rule", "cost", "none", "undecided", "rounds")
	type tally struct{ cost, none, und, rounds int }
	type rule struct {
		name string
		stop func(b, x []float64) bool // nil: fixed at n
		n    int
		// across: the verdict printed is the report's 95 % one across
		// rounds (with the halves), not Fieller's of independent runs;
		// firm: the firm verdict (result.Overhead.Answer).
		across, firm bool
	}
	decide := func(b, x []float64) stats.Verdict {
		return stats.Decide(stats.Overhead(b, x, 0.95), len(b), *margin)
	}
	rules := []rule{
		{name: "adaptive, a cost at 95 % (before)", stop: func(b, x []float64) bool { return decide(b, x).Decision != stats.Undecided }},
		{name: "adaptive, DecideToStop (99 % cost)", stop: func(b, x []float64) bool {
			return stats.DecideToStop(stats.Overhead(b, x, 0.95), stats.Overhead(b, x, stats.CostStopLevel), len(b), *margin).Decision != stats.Undecided
		}},
		{name: "adaptive, across rounds, 99 % cost", stop: func(b, x []float64) bool {
			return beforeFirm(b, x, *margin).Decision != stats.Undecided
		}, across: true},
		{name: "adaptive, firm (now)", stop: func(b, x []float64) bool {
			r := rounds(len(b))
			return result.Compare(b, r, x, r).Answer(*margin).Decision != stats.Undecided
		}, firm: true},
		{name: "fixed 10", n: 10},
		{name: "fixed 20", n: 20},
	}
	for _, sc := range []struct{ d, cv float64 }{
		{0, 1}, {0, 3}, {1, 2}, {1.5, 2}, {2, 2}, {3, 2}, {3, 4}, {-3, 3},
	} {
		for _, ru := range rules {
			var t tally
			for range *cells {
				var b, x []float64
				draw := func() {
					b = append(b, 100*(1+sc.cv/100*rng.NormFloat64()))
					x = append(x, 100*(1+sc.d/100)*(1+sc.cv/100*rng.NormFloat64()))
				}
				if ru.stop == nil {
					for range ru.n {
						draw()
					}
				} else {
					for range *first {
						draw()
					}
					for !ru.stop(b, x) && len(b) < *most {
						draw()
					}
				}
				verdict := decide(b, x)
				if ru.across {
					r := rounds(len(b))
					o := stats.OverheadAcrossRounds(b, r, x, r, 0.95)
					verdict = stats.Decide(o.Overhead, len(b), *margin).WithHalves(o)
				}
				if ru.firm {
					r := rounds(len(b))
					verdict = result.Compare(b, r, x, r).Answer(*margin)
				}
				switch verdict.Decision {
				case stats.Costs:
					t.cost++
				case stats.NoDifference:
					t.none++
				default:
					t.und++
				}
				t.rounds += len(b)
			}
			pct := func(k int) float64 { return 100 * float64(k) / float64(*cells) }
			fmt.Printf("%6.1f %5.1f  %-34s %6.1f%% %6.1f%% %8.1f%% %7.1f\n", sc.d, sc.cv, ru.name, pct(t.cost), pct(t.none), pct(t.und), float64(t.rounds)/float64(*cells))
		}
	}
}

// beforeFirm is the stopping rule before firm verdicts (issue 43): the
// 95 % interval across rounds for no difference, its 99 % one
// (stats.CostStopLevel) for a cost, the halves.
func beforeFirm(b, x []float64, margin float64) stats.Verdict {
	r := rounds(len(b))
	o := stats.OverheadAcrossRounds(b, r, x, r, 0.95)
	strict := stats.OverheadAcrossRounds(b, r, x, r, stats.CostStopLevel).Overhead
	return stats.DecideToStop(o.Overhead, strict, len(b), margin).WithHalves(o)
}

// rounds are the rounds 0 to n-1, one value of each side in each.
func rounds(n int) []int {
	out := make([]int, n)
	for i := range out {
		out[i] = i
	}
	return out
}
