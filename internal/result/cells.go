package result

import (
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/stats"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/workload"
)

// Cell is one metric of one run cell: its measured values (each run's
// figure, instance 0, of runs neither warm-up nor failed), each with its
// round, and what the workload says of the metric.
type Cell struct {
	Run            store.Run // the first run of the cell: its workload, env, levels and key
	Metric, Unit   string
	Label          string // the workload's label for the metric, else its name
	HigherIsBetter bool
	// Secondary cells are not judged: host monitors (mon.*) and a
	// workload's secondary figures.
	Secondary bool
	Absolute  bool // shown as mean (std) in every environment (a start-up time)
	Values    []float64
	Reps      []int // the round of each value
}

type cellKey struct{ cell, metric string }

// Cells are the measured cells of a study, in the order their first
// samples came, and the rounds each run cell is planned in.
type Cells struct {
	List    []*Cell
	byKey   map[cellKey]*Cell
	planned map[string]map[int]bool
}

// Gather reads the cells of runs and samples.
func Gather(runs []store.Run, samples []store.Sample) *Cells {
	byID := map[int64]store.Run{}
	for _, r := range runs {
		byID[r.ID] = r
	}
	cs := &Cells{byKey: map[cellKey]*Cell{}, planned: PlannedRounds(runs)}
	for _, smp := range samples {
		run, ok := byID[smp.RunID]
		// Instance 0 is the run's figure; 1..N are its concurrent instances.
		if !ok || run.Warmup || run.Status != store.RunOK || smp.Instance != 0 {
			continue
		}
		k := cellKey{run.CellKey, smp.Metric}
		c := cs.byKey[k]
		if c == nil {
			c = newCell(run, smp)
			cs.byKey[k] = c
			cs.List = append(cs.List, c)
		}
		c.Values = append(c.Values, smp.Value)
		c.Reps = append(c.Reps, run.Rep)
	}
	return cs
}

func newCell(run store.Run, smp store.Sample) *Cell {
	c := &Cell{Run: run, Metric: smp.Metric, Unit: smp.Unit, Label: smp.Metric}
	if m, ok := workload.MetricOf(run.Workload, workload.Params(run.Params), smp.Metric); ok {
		c.Label, c.HigherIsBetter, c.Secondary, c.Absolute = m.Label, m.HigherIsBetter, m.Secondary, m.Absolute
	}
	// Host monitors (mon.*) are context, not results. Energy figures
	// (energy.*) are results.
	if strings.HasPrefix(smp.Metric, "mon.") {
		c.Secondary = true
	}
	if smp.Metric == "energy.efficiency_per_W" {
		c.HigherIsBetter = true
	}
	return c
}

// Baseline is the cell of the baseline environment that c is compared
// with, if it was measured.
func (cs *Cells) Baseline(c *Cell, baseline string) (*Cell, bool) {
	b, ok := cs.byKey[cellKey{BaselineKey(c.Run.CellKey, baseline), c.Metric}]
	return b, ok
}

// BaselineKey is the key of the run cell that has the same levels but
// the baseline env.
func BaselineKey(cellKey, baseline string) string {
	parts := strings.Split(cellKey, "|")
	for i, p := range parts {
		if strings.HasPrefix(p, "env=") {
			parts[i] = "env=" + baseline
		}
	}
	return strings.Join(parts, "|")
}

// Overhead is a cell against its baseline: the baseline's runs of the
// rounds the cell is planned in (all of them, but after an adaptive
// study's focused rounds), compared across rounds and paired by round.
type Overhead struct {
	Across stats.RoundsResult // at 95 %: the estimate, its interval, the drift and the halves
	BaseN  int                // the baseline's values it was compared with
	N      int                // the rounds behind it: the fewer of the cell's and the baseline's values
	// Paired is the overhead from the rounds both ran in (the pairs of a
	// blocked design), Pairs of them; nil when fewer than 2 rounds pair
	// up or a cell ran twice in a round.
	Paired *stats.OverheadResult
	Pairs  int
	// Studies is how many studies of the host the intervals carry the
	// spread of (WithStudies): this one and the earlier ones; 0 when only
	// this one's. BetweenSD is that spread, the standard deviation of the
	// overhead between studies beyond their own errors, in points.
	Studies   int
	BetweenSD float64
}

// Compare is the overhead of xs against the baseline's bs across rounds
// (each value measured in the round of xReps, bReps), without a paired
// estimate.
func Compare(bs []float64, bReps []int, xs []float64, xReps []int) Overhead {
	return Overhead{Across: stats.OverheadAcrossRounds(bs, bReps, xs, xReps, 0.95), BaseN: len(bs), N: min(len(bs), len(xs))}
}

// Against compares c with its baseline cell base: with the baseline's
// runs of the rounds c is planned in, and paired by round.
func (cs *Cells) Against(c, base *Cell) Overhead {
	bs, bReps := InRoundsWith(base.Values, base.Reps, cs.planned[c.Run.CellKey])
	o := Compare(bs, bReps, c.Values, c.Reps)
	if repeated(base.Reps) || repeated(c.Reps) {
		return o // two runs of a cell in one round: not blocks
	}
	if b, x := PairByRound(base.Values, base.Reps, c.Values, c.Reps); len(b) >= 2 {
		p := stats.PairedOverhead(b, x, 0.95)
		o.Paired, o.Pairs = &p, len(b)
	}
	return o
}

// Settled is c's overhead against base at the first look that decided it
// (Answer at marginPct) before its last round, and true; false when no
// such look did, and the answer is then over all its rounds. The study looks after every round from its first
// firstRounds whole ones, and a decided cell is measured no more for its
// own sake; yet its runs go on while another metric of the same runs is
// undecided (disk.rand's read IOPS beside its write IOPS), and judged
// again on those rounds it could lose its answer (from 9 rounds the drift
// factor widens its interval) where a study that measured only it would
// have stopped with it. So a decided cell stays decided, on the rounds
// that decided it, as the rule simulated by bench/seqsim has it (issue 43:
// in one study of a replicate run disk.rand read IOPS @ docker-host was a
// firm gain after 3 rounds, ran 7 more for the write IOPS and ended
// undecided; the other two studies decided it after 5 and 6 rounds and
// stopped). firstRounds <= 0: no looks (a study of fixed rounds).
func (cs *Cells) Settled(c, base *Cell, earlier []stats.Estimate, marginPct float64, firstRounds int) (Overhead, bool) {
	if firstRounds <= 0 {
		return Overhead{}, false
	}
	rounds := slices.Sorted(maps.Keys(setOf(c.Reps)))
	for n := firstRounds; n < len(rounds); n++ {
		looked := setOf(rounds[:n])
		o := cs.Against(c.in(looked), base.in(looked)).WithStudies(earlier)
		if o.Answer(marginPct).Decision != stats.Undecided {
			return o, true
		}
	}
	return Overhead{}, false
}

// in is c with only its values of the given rounds.
func (c *Cell) in(rounds map[int]bool) *Cell {
	out := *c
	out.Values, out.Reps = InRoundsWith(c.Values, c.Reps, rounds)
	return &out
}

func setOf(xs []int) map[int]bool {
	m := map[int]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// Answer is the cell's verdict as an adaptive study gives it, both to
// decide when to stop and at its end (the run's end lines, the report): a
// cost or no difference only when the verdict is firm (stats.DecideFirm:
// Across's interval widened to what a study run again would likely
// show, with the spread between studies in it), undecided when the halves
// of the cell's rounds lie apart, with the 95 % interval and, undecided,
// the rounds a firm verdict would likely take.
func (o Overhead) Answer(marginPct float64) stats.Verdict {
	return stats.DecideFirm(o.Across.Overhead, o.N, marginPct).WithHalves(o.Across)
}

func repeated(reps []int) bool {
	seen := map[int]bool{}
	for _, r := range reps {
		if seen[r] {
			return true
		}
		seen[r] = true
	}
	return false
}

// Factors are the factors the runs vary besides the environment, sorted.
func Factors(runs []store.Run) []string {
	var out []string
	for _, r := range runs {
		for k := range r.Levels {
			if k != "env" && !slices.Contains(out, k) {
				out = append(out, k)
			}
		}
	}
	slices.Sort(out)
	return out
}

// RowName is the row of a cell in the tables and the run's lines: its
// workload and its levels of factors, as "cpu.prime threads=2".
func RowName(workload string, levels map[string]string, factors []string) string {
	parts := []string{workload}
	for _, f := range factors {
		if v, ok := levels[f]; ok {
			parts = append(parts, f+"="+v)
		}
	}
	return strings.Join(parts, " ")
}
