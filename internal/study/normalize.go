package study

import (
	"slices"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/study/rounds"
)

// Normalize puts a spec in the one form Validate checks and Plan plans:
// the defaults filled in (FillDefaults), a study with a time budget made
// adaptive (useBudget, the default precision and most rounds), an adaptive study's first rounds
// raised to MinAdaptiveRepetitions, and every environment with options,
// and the baseline, named canonically (its options in one order and
// spelling), so that one variant has one name in the plan and the store.
// A name that cannot be made canonical is left as written, for Validate to
// say why. envNames are the environments this boxtax has. It returns s.
func (s *Spec) Normalize(envNames []string) *Spec {
	s.FillDefaults()
	if s.Adaptive == nil {
		s.useBudget(rounds.Adaptive{PrecisionPct: DefaultPrecisionPct, MaxRepetitions: DefaultMaxReps})
	}
	if s.Adaptive != nil && s.Repetitions < rounds.MinAdaptiveRepetitions {
		s.Repetitions = rounds.MinAdaptiveRepetitions
	}
	canonical := map[string]bool{}
	for i, e := range s.Envs {
		if base := env.BaseName(e.Name); base != e.Name && slices.Contains(envNames, base) {
			if canon, err := engines.Check(e.Name); err == nil && canon != e.Name {
				s.Envs[i].Name, s.Envs[i].Written = canon, e.written()
			}
		}
		canonical[s.Envs[i].Name] = true
	}
	if canon, err := engines.Check(s.Baseline); s.Baseline != "" && err == nil && canonical[canon] {
		s.Baseline = canon
	}
	return s
}

// useBudget is the one rule of what a budget implies: a study with a
// budget (budget: in its file or --budget) decides its cells against the
// baseline adaptively, with a's margin and most rounds; with the baseline
// alone there is nothing to decide, and the study runs its rounds (an
// adaptive: block or --reps auto written so is refused by Validate).
func (s *Spec) useBudget(a rounds.Adaptive) {
	if s.Budget > 0 && len(s.Envs) > 1 {
		s.UseAdaptive(a)
	}
}

// written is the environment's name as the spec wrote it.
func (n Named) written() string {
	if n.Written != "" {
		return n.Written
	}
	return n.Name
}
