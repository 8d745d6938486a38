package study

import (
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/study/rounds"
)

// TestAdaptiveFromTheCommandLineStartsAtMost lowers a study's own
// repetitions to --max-reps (the one rule, Spec.UseAdaptive), while a spec
// that writes both itself is refused by Validate.
func TestAdaptiveFromTheCommandLineStartsAtMost(t *testing.T) {
	s := validSpec(t, "r.yaml", "name: r\nrepetitions: 9\nenvs: [native, docker-host]\nworkloads: [test.a]\n")
	Reps{Auto: true, Max: 4}.apply(s, 0)
	if s.Repetitions != 4 || s.Adaptive == nil || s.Adaptive.MaxRepetitions != 4 || s.Adaptive.PrecisionPct != DefaultPrecisionPct {
		t.Errorf("repetitions %d, adaptive %+v: want 4 rounds to start, at most 4, target %g%%", s.Repetitions, s.Adaptive, DefaultPrecisionPct)
	}
	if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
		t.Errorf("the lowered spec does not validate: %v", err)
	}
}

// TestABudgetOnTheCommandLineDecidesAsAStudyFiles: --budget makes a study
// adaptive with --precision and --max-reps only as budget: in a file does
// (useBudget): with the baseline alone it runs its rounds instead of being
// refused as an adaptive study without a second environment.
func TestABudgetOnTheCommandLineDecidesAsAStudyFiles(t *testing.T) {
	for _, tc := range []struct {
		envs     string
		adaptive bool
	}{{"[native]", false}, {"[native, docker-host]", true}} {
		s := validSpec(t, "b.yaml", "name: b\nrepetitions: 3\nenvs: "+tc.envs+"\nworkloads: [test.a]\n")
		if err := (Reps{PrecisionPct: 5, Max: 40}).apply(s, rounds.Budget(8*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.Normalize(testEnvs).Validate(testEnvs); err != nil {
			t.Errorf("envs %s: %v", tc.envs, err)
		}
		want := &rounds.Adaptive{PrecisionPct: 5, MaxRepetitions: 40}
		if s.Budget != rounds.Budget(8*time.Minute) || (s.Adaptive != nil) != tc.adaptive || tc.adaptive && *s.Adaptive != *want {
			t.Errorf("envs %s: budget %s, adaptive %+v: want 8m, adaptive %v (%+v)", tc.envs, s.Budget, s.Adaptive, tc.adaptive, want)
		}
	}
}
