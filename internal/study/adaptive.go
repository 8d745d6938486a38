package study

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/boxtax/boxtax/internal/store"
	"go.yaml.in/yaml/v3"
)

// Adaptive asks for repetitions until every overhead is decided, after
// Phoronix's dynamic run count but kept blocked: whole randomized rounds
// (every cell once) are added, never single runs of a noisy cell, so the
// design stays a randomized complete block design. After each round the
// stopping rule (DecisionsOf, Stopping) checks whether every primary
// metric's overhead is decided: a cost (its 95 % interval excludes 0) or no
// difference beyond ±PrecisionPct; if not, fewer than MaxRepetitions
// rounds have run and the study's budget allows another round, one more
// round is planned.
type Adaptive struct {
	PrecisionPct   float64 `yaml:"precision_pct"`   // the margin p of "no difference beyond ±p %", in % of the baseline
	MaxRepetitions int     `yaml:"max_repetitions"` // stop after this many rounds even if not reached
}

// MaxAdaptiveRepetitions bounds adaptive.max_repetitions.
const MaxAdaptiveRepetitions = 1000

// MinAdaptiveRepetitions is the fewest rounds an adaptive study starts with:
// an interval needs two runs a cell.
const MinAdaptiveRepetitions = 2

func (s *Spec) validateAdaptive(bad func(Pos, string, ...any)) {
	a := s.Adaptive
	if a == nil {
		return
	}
	if !(a.PrecisionPct > 0 && a.PrecisionPct <= 100) {
		bad(Pos{}, "adaptive precision_pct must be above 0 and at most 100 (percent of the baseline), not %v", a.PrecisionPct)
	}
	if a.MaxRepetitions < MinAdaptiveRepetitions || a.MaxRepetitions > MaxAdaptiveRepetitions {
		bad(Pos{}, "adaptive max_repetitions must be %d to %d, not %d", MinAdaptiveRepetitions, MaxAdaptiveRepetitions, a.MaxRepetitions)
	}
	if len(s.Envs) < 2 {
		bad(Pos{}, "adaptive repetitions need an environment besides the baseline: their target is the precision of the overhead against it")
	}
	if a.MaxRepetitions >= MinAdaptiveRepetitions && s.Repetitions > a.MaxRepetitions {
		bad(Pos{}, "repetitions (%d, the rounds an adaptive study starts with) exceed adaptive max_repetitions (%d)", s.Repetitions, a.MaxRepetitions)
	}
}

// UseAdaptive makes the spec adaptive as the command line asks (--reps
// auto): a study whose own repetitions exceed a.MaxRepetitions starts with
// a.MaxRepetitions rounds, since its count was written for a fixed run. A
// spec that writes both itself contradicts itself, and Validate refuses
// it. This is the one place the two meet.
func (s *Spec) UseAdaptive(a Adaptive) {
	s.Adaptive = &a
	if a.MaxRepetitions >= MinAdaptiveRepetitions && s.Repetitions > a.MaxRepetitions {
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

// MeasuredRounds counts the measured rounds planned among runs.
func MeasuredRounds(runs []store.Run) int {
	n := 0
	for _, run := range runs {
		if !run.Warmup && run.Rep+1 > n {
			n = run.Rep + 1
		}
	}
	return n
}

// Stopping is an adaptive study's stopping rule as ExecuteAdaptive applies
// it after each round: Judge reads the stored samples (DecisionsOf), and
// Deadline, when set, is when the study's time budget ends: no round is
// begun that would, by the rounds measured so far, end after it.
type Stopping struct {
	Judge    func(context.Context) (Decisions, error)
	Deadline time.Time        // zero: no budget
	Now      func() time.Time // nil: time.Now; tests give a clock of their own
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
	// rounds the budget and max_repetitions still allow (by each cell's
	// estimate of further rounds, stats.Verdict.MoreRounds), so the rest
	// of the budget would buy nothing.
	StoppedOutOfReach = "out of reach"
)

// AdaptiveEnd is how an adaptive study ended: after how many rounds, why,
// the measured time of one round (warm-up included, as rounds of the
// same cells), and the last judgement.
type AdaptiveEnd struct {
	Rounds    int
	Stopped   string        // StoppedDecided, StoppedMax or StoppedBudget; "" when interrupted
	RoundTime time.Duration // measured; 0 when nothing ran in this process
	Last      Decisions
}

// ExecuteAdaptive runs the study's pending runs, then, while stop.Judge
// says a cell is undecided, fewer than the maximum rounds have been
// planned and the next round (as long as the rounds measured so far)
// would end before stop.Deadline, adds one more round to the store and
// runs it. It works the same on a resumed study: the rounds already
// stored are finished first. Without s.Adaptive it is Execute.
func (r *Runner) ExecuteAdaptive(ctx context.Context, st store.Study, runs []store.Run, stop Stopping) (AdaptiveEnd, error) {
	a := r.Spec.Adaptive
	if a == nil {
		return AdaptiveEnd{}, r.Execute(ctx, st, runs)
	}
	var end AdaptiveEnd
	var busy time.Duration // spent doing runs in this process
	done := 0              // runs done in this process
	perRound := roundSize(runs)
	for {
		pending := countPending(runs)
		began := stop.now()
		if err := r.executePending(ctx, runs); err != nil {
			return end, r.stop(ctx, st, err)
		}
		busy += stop.now().Sub(began)
		done += pending - countPending(runs)
		if done > 0 && perRound > 0 {
			end.RoundTime = time.Duration(float64(busy) * float64(perRound) / float64(done))
		}
		rounds := MeasuredRounds(runs)
		end.Rounds = rounds
		d, err := stop.Judge(ctx)
		if err != nil {
			return end, r.stop(ctx, st, err)
		}
		end.Last = d
		switch {
		case d.Done:
			end.Stopped = StoppedDecided
		case rounds >= a.MaxRepetitions:
			end.Stopped = StoppedMax
		case !stop.Deadline.IsZero() && stop.now().Add(end.RoundTime).After(stop.Deadline):
			end.Stopped = StoppedBudget
		case !d.reachable(end.RoundsLeft(a.MaxRepetitions, stop)):
			end.Stopped = StoppedOutOfReach
		}
		if end.Stopped != "" {
			break
		}
		next, err := r.Spec.NextRound(st.Seed, rounds)
		if err != nil {
			return end, r.stop(ctx, st, err)
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

// RoundsLeft is how many more rounds the study may add: up to
// max_repetitions and, with a budget, as many measured round times as fit
// before its deadline.
func (e AdaptiveEnd) RoundsLeft(maxRounds int, stop Stopping) int {
	left := maxRounds - e.Rounds
	if !stop.Deadline.IsZero() && e.RoundTime > 0 {
		left = min(left, int(stop.Deadline.Sub(stop.now())/e.RoundTime))
	}
	return max(left, 0)
}

// roundSize is the number of runs in one round: the cells of round 0.
func roundSize(runs []store.Run) int {
	n := 0
	for _, run := range runs {
		if !run.Warmup && run.Rep == 0 {
			n++
		}
	}
	return n
}

func countPending(runs []store.Run) int {
	n := 0
	for _, run := range runs {
		if run.Status == store.RunPending {
			n++
		}
	}
	return n
}

// Budget is a study's time budget (budget: 8m in a study file, --budget):
// a Go duration; 0: none.
type Budget time.Duration

// MinBudget is the shortest budget taken: below it no study gets past its
// first rounds, so a smaller one is a typo (8s for 8m).
const MinBudget = Budget(30 * time.Second)

// UnmarshalYAML reads a duration such as 8m or 1h30m.
func (b *Budget) UnmarshalYAML(v *yaml.Node) error {
	var s string
	if err := v.Decode(&s); err != nil {
		return err
	}
	d, err := ParseBudget(s)
	if err != nil {
		return fmt.Errorf("line %d: budget: %w", v.Line, err)
	}
	*b = d
	return nil
}

// MarshalYAML writes it as ParseBudget reads it.
func (b Budget) MarshalYAML() (any, error) { return b.String(), nil }

// String is the duration, e.g. 8m0s.
func (b Budget) String() string { return time.Duration(b).String() }

// ParseBudget reads a budget: a duration of at least MinBudget.
func ParseBudget(s string) (Budget, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || Budget(d) < MinBudget {
		return 0, fmt.Errorf("want a duration of at least %s, like 8m or 1h30m, not %q", time.Duration(MinBudget), s)
	}
	return Budget(d), nil
}
