package study

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/store"
)

// Adaptive asks for repetitions until the overheads are precise enough,
// after Phoronix's dynamic run count but kept blocked: whole randomized
// rounds (every cell once) are added, never single runs of a noisy cell, so
// the design stays a randomized complete block design. After each round the
// caller checks whether every primary metric's 95 % interval of the overhead
// has a half-width of at most PrecisionPct percentage points; if not, and
// fewer than MaxRepetitions rounds have run, one more round is planned.
type Adaptive struct {
	PrecisionPct   float64 `yaml:"precision_pct"`   // target half-width of the 95 % interval, in % of the baseline
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

// ExecuteAdaptive runs the study's pending runs, then, while reached says
// the target is not met and fewer than the maximum rounds have been planned,
// adds one more round to the store and runs it. It works the same on a
// resumed study: the rounds already stored are finished first. Without
// s.Adaptive it is Execute.
func (r *Runner) ExecuteAdaptive(ctx context.Context, st store.Study, runs []store.Run, reached func(context.Context) (bool, error)) error {
	a := r.Spec.Adaptive
	if a == nil {
		return r.Execute(ctx, st, runs)
	}
	for {
		if err := r.executePending(ctx, runs); err != nil {
			return r.stop(ctx, st, err)
		}
		rounds := MeasuredRounds(runs)
		if rounds >= a.MaxRepetitions {
			break
		}
		ok, err := reached(ctx)
		if err != nil {
			return r.stop(ctx, st, err)
		}
		if ok {
			break
		}
		next, err := r.Spec.NextRound(st.Seed, rounds)
		if err != nil {
			return r.stop(ctx, st, err)
		}
		if len(runs) > 0 && len(next) > 0 && next[0].Seq <= runs[len(runs)-1].Seq {
			return r.stop(ctx, st, fmt.Errorf("adaptive round %d would reuse run numbers: the stored plan does not follow the spec", rounds+1))
		}
		if err := r.Store.AddRuns(context.WithoutCancel(ctx), st.ID, next); err != nil {
			return r.stop(ctx, st, err)
		}
		runs = append(runs, next...)
	}
	return r.stop(ctx, st, nil)
}
