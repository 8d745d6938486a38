package study

import (
	"strings"
	"testing"
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
	if *s.Warmup != DefaultWarmup || s.Repetitions != MinAdaptiveRepetitions || s.Envs[1].Name != "docker-bridge+seccomp=unconfined+storage=bind" {
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
