package study

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/store"
	"github.com/boxtax/boxtax/internal/study/rounds"
)

func (s *Spec) validateAdaptive(bad func(Pos, string, ...any)) {
	a := s.Adaptive
	if a == nil {
		return
	}
	if !(a.PrecisionPct > 0 && a.PrecisionPct <= 100) {
		bad(Pos{}, "adaptive precision_pct must be above 0 and at most 100 (percent of the baseline), not %v", a.PrecisionPct)
	}
	if a.MaxRepetitions < rounds.MinAdaptiveRepetitions || a.MaxRepetitions > rounds.MaxAdaptiveRepetitions {
		bad(Pos{}, "adaptive max_repetitions must be %d to %d, not %d", rounds.MinAdaptiveRepetitions, rounds.MaxAdaptiveRepetitions, a.MaxRepetitions)
	}
	if len(s.Envs) < 2 {
		bad(Pos{}, "adaptive repetitions need an environment besides the baseline: their target is the precision of the overhead against it")
	}
	if a.MaxRepetitions >= rounds.MinAdaptiveRepetitions && s.Repetitions > a.MaxRepetitions {
		bad(Pos{}, "repetitions (%d, the rounds an adaptive study starts with) exceed adaptive max_repetitions (%d)", s.Repetitions, a.MaxRepetitions)
	}
}

// UseAdaptive makes the spec adaptive as the command line asks (--reps
// auto): a study whose own repetitions exceed a.MaxRepetitions starts with
// a.MaxRepetitions rounds, since its count was written for a fixed run. A
// spec that writes both itself contradicts itself, and Validate refuses
// it. This is the one place the two meet.
func (s *Spec) UseAdaptive(a rounds.Adaptive) {
	s.Adaptive = &a
	if a.MaxRepetitions >= rounds.MinAdaptiveRepetitions && s.Repetitions > a.MaxRepetitions {
		s.Repetitions = a.MaxRepetitions
	}
}

// NextRound plans measured round rep (0-based) of the study as Plan would
// have planned it had the study asked for more repetitions: the same seed
// gives the same earlier rounds, so the new runs continue the sequence.
func (s *Spec) NextRound(seed int64, rep int) ([]store.Run, error) {
	more := *s
	more.Repetitions = rep + 1
	all, err := more.Plan(seed)
	if err != nil {
		return nil, err
	}
	var out []store.Run
	for _, run := range all {
		if !run.Warmup && run.Rep == rep {
			out = append(out, run)
		}
	}
	return out, nil
}

// Layout is what the results take from the spec: the baseline, the order
// of environments and workloads, and the stopping rule's margin.
func (s *Spec) Layout() result.Layout {
	lay := result.Layout{Baseline: s.Baseline, Envs: s.EnvNames()}
	for _, w := range s.Workloads {
		lay.Workloads = append(lay.Workloads, w.Name)
	}
	if s.Adaptive != nil {
		lay.MarginPct, lay.FirstRounds = s.Adaptive.PrecisionPct, s.Repetitions
	}
	return lay
}

// Stopping is an adaptive study's stopping rule as ExecuteAdaptive applies
// it after each round: Judge reads the stored samples (result.Decide), and
// Deadline, when set, is when the study's time budget ends: no round is
// begun that would, by the rounds measured so far, end after it.
type Stopping struct {
	Judge    func(context.Context) (result.Decisions, error)
	Deadline time.Time        // zero: no budget
	Now      func() time.Time // nil: time.Now; tests give a clock of their own
	// Focused, when set, hears of each focused round before it runs: its
	// number (from 1), and how many of the study's cells it measures.
	Focused func(round, cells, of int)
}

func (s Stopping) now() time.Time {
	if s.Now == nil {
		return time.Now()
	}
	return s.Now()
}

// Why an adaptive study stopped adding rounds.
const (
	StoppedDecided = "decided"    // every judged cell has its answer
	StoppedMax     = "max rounds" // the spec's max_repetitions ran
	StoppedBudget  = "budget"     // the next round would end past the deadline
	// StoppedOutOfReach: no undecided cell is likely to be decided in the
	// rounds max_repetitions still allows (by each cell's estimate of
	// further rounds, stats.Verdict.MoreRounds), so the rest of the
	// budget would buy nothing. A cell estimated past the budget but
	// within the maximum is measured on while the budget holds
	// (result.Decisions.Focus).
	StoppedOutOfReach = "out of reach"
)

// AdaptiveEnd is how an adaptive study ended: after how many rounds, why,
// the measured time of one whole round (every cell once, warm-up runs
// counted as runs of the same cells), and the last judgement.
type AdaptiveEnd struct {
	Rounds    int
	Stopped   string        // StoppedDecided, StoppedMax, StoppedBudget or StoppedOutOfReach; "" when interrupted
	RoundTime time.Duration // measured; 0 when nothing ran in this process
	Last      result.Decisions
	// Focused counts the rounds that measured only some cells: the
	// undecided ones within reach and their baselines.
	Focused int
	Max     int           // the rounds the study allows (max_repetitions)
	Spent   time.Duration // the time its rounds took in this process, on the stopping rule's clock
	next    time.Duration // the time of the round that would have come next
	times   runTimes      // each cell's runs in this process
}

// ExecuteAdaptive runs the study's pending runs, then, while stop.Judge
// says a cell is undecided, fewer than the maximum rounds have been
// planned and the next round (at the time its cells took so far) would
// end before stop.Deadline, adds one more round to the store and runs it:
// the cells result.Decisions.Focus chooses, or every cell when the judgement
// names none. It works the same on a resumed study: the rounds already
// stored are finished first. Without s.Adaptive it is Execute.
func (r *Runner) ExecuteAdaptive(ctx context.Context, st store.Study, runs []store.Run, stop Stopping) (AdaptiveEnd, error) {
	a := r.Spec.Adaptive
	if a == nil {
		return AdaptiveEnd{}, r.Execute(ctx, st, runs)
	}
	end := AdaptiveEnd{Max: a.MaxRepetitions}
	times := runTimes{}
	all := roundCells(runs)
	began := stop.now()
	for {
		last := stop.now()
		if err := r.executePending(ctx, runs, func(run store.Run) {
			now := stop.now()
			times.add(run.CellKey, now.Sub(last))
			last = now
		}); err != nil {
			return end, r.stop(ctx, st, err)
		}
		rounds := result.MeasuredRounds(runs)
		end.Rounds, end.Spent = rounds, stop.now().Sub(began)
		end.RoundTime = times.round(all)
		end.next, end.times = end.RoundTime, times
		d, err := stop.Judge(ctx)
		if err != nil {
			return end, r.stop(ctx, st, err)
		}
		end.Last = d
		var keep map[string]bool
		switch {
		case d.Done:
			end.Stopped = StoppedDecided
		case rounds >= a.MaxRepetitions:
			end.Stopped = StoppedMax
		case len(d.Cells) == 0:
			// A judgement that names no cell: whole rounds, until the
			// budget or the maximum ends them.
			if !stop.Deadline.IsZero() && stop.now().Add(end.RoundTime).After(stop.Deadline) {
				end.Stopped = StoppedBudget
			}
		default:
			keep, end.Stopped = end.focus(d, a.MaxRepetitions, stop)
		}
		if end.Stopped != "" {
			break
		}
		next, err := r.Spec.NextRound(st.Seed, rounds)
		if err != nil {
			return end, r.stop(ctx, st, err)
		}
		if keep != nil && len(next) > 0 {
			focused := slices.DeleteFunc(slices.Clone(next), func(run store.Run) bool { return !keep[run.CellKey] })
			if len(focused) < len(next) {
				if stop.Focused != nil {
					stop.Focused(rounds+1, len(focused), len(next))
				}
				next = focused
				end.Focused++
			}
		}
		if len(runs) > 0 && len(next) > 0 && next[0].Seq <= runs[len(runs)-1].Seq {
			return end, r.stop(ctx, st, fmt.Errorf("adaptive round %d would reuse run numbers: the stored plan does not follow the spec", rounds+1))
		}
		if err := r.Store.AddRuns(context.WithoutCancel(ctx), st.ID, next); err != nil {
			return end, r.stop(ctx, st, err)
		}
		runs = append(runs, next...)
	}
	return end, r.stop(ctx, st, nil)
}

// focus chooses the cells of the next round (result.Decisions.Focus) and notes
// that round's time; it returns why the study stops instead
// when no undecided cell is within reach: StoppedBudget when not even
// the one nearest its answer has time for another round, else
// StoppedOutOfReach.
func (e *AdaptiveEnd) focus(d result.Decisions, maxRounds int, stop Stopping) (map[string]bool, string) {
	fit := func(cells map[string]bool) int { return e.roundsLeftAt(e.times.round(cells), maxRounds, stop) }
	keep, nearest := d.Focus(fit, maxRounds-e.Rounds)
	if keep == nil {
		if nearest != nil && fit(nearest) == 0 {
			e.next = e.times.round(nearest)
			return nil, StoppedBudget
		}
		return nil, StoppedOutOfReach
	}
	e.next = e.times.round(keep)
	return keep, ""
}

// roundsLeftAt is RoundsLeft for rounds that take round.
func (e AdaptiveEnd) roundsLeftAt(round time.Duration, maxRounds int, stop Stopping) int {
	left := maxRounds - e.Rounds
	if !stop.Deadline.IsZero() && round > 0 {
		left = min(left, int(stop.Deadline.Sub(stop.now())/round))
	}
	return max(left, 0)
}

// runTimes is the time each cell's runs took in this process, by cell key:
// the run and the wait for a quiet host before it, on the stopping rule's
// clock.
type runTimes map[string]*cellTime

type cellTime struct {
	sum time.Duration
	n   int
}

func (t runTimes) add(cell string, d time.Duration) {
	c := t[cell]
	if c == nil {
		c = &cellTime{}
		t[cell] = c
	}
	c.sum += d
	c.n++
}

// round is the time of one run of each of cells (a set of cell keys): a
// cell's mean, or, for a cell that did not run in this process, the mean
// of all runs; 0 when nothing ran.
func (t runTimes) round(cells map[string]bool) time.Duration {
	var sum time.Duration
	n := 0
	for _, c := range t {
		sum += c.sum
		n += c.n
	}
	if n == 0 {
		return 0
	}
	mean := sum / time.Duration(n)
	var total time.Duration
	for k := range cells {
		if c := t[k]; c != nil {
			total += c.sum / time.Duration(c.n)
		} else {
			total += mean
		}
	}
	return total
}

// roundCells are the cells of the study's first measured round: every cell.
func roundCells(runs []store.Run) map[string]bool {
	cells := map[string]bool{}
	for _, run := range runs {
		if !run.Warmup && run.Rep == 0 {
			cells[run.CellKey] = true
		}
	}
	return cells
}
