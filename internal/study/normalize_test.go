package study

import (
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/study/rounds"
)

// TestValidateOnlyChecks: Normalize fills the defaults and names the
// environments canonically; Validate changes nothing, and says so when it
// is given a spec Normalize has not seen (issue 26: Validate filled
// defaults and renamed environments as it checked).
func TestValidateOnlyChecks(t *testing.T) {
	const yaml = `name: n
envs: [native, docker-bridge+storage=bind+seccomp=unconfined]
baseline: native
workloads: [test.a]
adaptive: {precision_pct: 2, max_repetitions: 5}
repetitions: 1
`
	s, err := ParseSpec("n.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	raw := s.YAML()
	if err := s.Validate(testEnvs); err == nil || !strings.Contains(err.Error(), "call Normalize before Validate") {
		t.Errorf("a spec not normalized: %v", err)
	}
	if s.YAML() != raw {
		t.Fatalf("Validate changed the spec:\n%s\nwas:\n%s", s.YAML(), raw)
	}
	s.Normalize(testEnvs)
	if *s.Warmup != DefaultWarmup || s.Repetitions != rounds.MinAdaptiveRepetitions || s.Envs[1].Name != "docker-bridge+seccomp=unconfined+storage=bind" {
		t.Errorf("normalized: warmup %d, repetitions %d, envs %v", *s.Warmup, s.Repetitions, s.EnvNames())
	}
	normal := s.YAML()
	if err := s.Validate(testEnvs); err != nil {
		t.Fatal(err)
	}
	if s.YAML() != normal {
		t.Errorf("Validate changed the normalized spec:\n%s\nwas:\n%s", s.YAML(), normal)
	}
}

// TestABudgetWithTheBaselineAloneRunsItsRounds: the quick study has a
// budget; `boxtax run --envs native` has no cell to decide against the
// baseline, so it runs its rounds instead of being refused as an adaptive
// study without a second environment (an adaptive: block written so is
// still refused).
func TestABudgetWithTheBaselineAloneRunsItsRounds(t *testing.T) {
	for _, tc := range []struct {
		yaml     string
		adaptive bool
		refused  string
	}{
		{"name: n\nenvs: [native]\nworkloads: [test.a]\nrepetitions: 3\nbudget: 5m\n", false, ""},
		{"name: n\nenvs: [native, docker-bridge]\nworkloads: [test.a]\nrepetitions: 3\nbudget: 5m\n", true, ""},
		{"name: n\nenvs: [native]\nworkloads: [test.a]\nadaptive: {precision_pct: 2, max_repetitions: 5}\n", true, "adaptive repetitions need an environment besides the baseline"},
	} {
		s, err := ParseSpec("n.yaml", []byte(tc.yaml))
		if err != nil {
			t.Fatal(err)
		}
		s.Normalize(testEnvs)
		if (s.Adaptive != nil) != tc.adaptive {
			t.Errorf("%q: adaptive %v, want %v", tc.yaml, s.Adaptive != nil, tc.adaptive)
		}
		err = s.Validate(testEnvs)
		if tc.refused == "" && err != nil {
			t.Errorf("%q: %v", tc.yaml, err)
		}
		if tc.refused != "" && (err == nil || !strings.Contains(err.Error(), tc.refused)) {
			t.Errorf("%q: %v, want %q", tc.yaml, err, tc.refused)
		}
	}
}
