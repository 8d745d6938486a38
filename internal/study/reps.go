package study

import (
	"cmp"

	"github.com/boxtax/boxtax/internal/result"
	"github.com/boxtax/boxtax/internal/study/rounds"
)

// Reps is the repetitions rule of a run (--reps): a count, "paper" (the
// published study's count) or "auto" (whole rounds until every overhead is
// known to PrecisionPct, at most Max rounds).
type Reps struct {
	N            int // a count; 0: the study's
	Paper        bool
	Auto         bool
	PrecisionPct float64 // --precision; 0: DefaultPrecisionPct
	Max          int     // --max-reps
}

// DefaultPrecisionPct is --precision's default.
const DefaultPrecisionPct = result.DefaultMarginPct

// apply sets the spec's repetitions for paper and auto, and a budget
// given on the command line, which decides as a study's own does
// (Spec.useBudget) with this margin and most rounds (a count is an
// ordinary override, Overrides.Repetitions, and ends the spec's own
// budget).
func (r Reps) apply(spec *Spec, budget rounds.Budget) error {
	if budget > 0 {
		spec.Budget = budget
	}
	a := rounds.Adaptive{PrecisionPct: cmp.Or(r.PrecisionPct, DefaultPrecisionPct), MaxRepetitions: r.Max}
	switch {
	case r.Paper:
		spec.Budget = 0 // the paper's count, not rounds until decided
		return spec.UsePaperRepetitions()
	case r.Auto:
		spec.UseAdaptive(a)
	case budget > 0:
		spec.useBudget(a)
	}
	return nil
}
