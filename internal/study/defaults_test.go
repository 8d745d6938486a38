package study

import "testing"

func TestFillDefaultsChoosesTheBaseline(t *testing.T) {
	for _, tt := range []struct {
		name, baseline string
		envs           []string
		want           string
	}{
		{"native when the study runs it", "", []string{"docker-bridge", "native"}, "native"},
		{"else the first", "", []string{"docker-host", "docker-bridge"}, "docker-host"},
		{"the spec's own", "docker-bridge", []string{"native", "docker-bridge"}, "docker-bridge"},
		{"none without environments", "", nil, ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := &Spec{Baseline: tt.baseline}
			for _, e := range tt.envs {
				s.Envs = append(s.Envs, Named{Name: e})
			}
			s.FillDefaults()
			if s.Baseline != tt.want {
				t.Errorf("baseline %q, want %q", s.Baseline, tt.want)
			}
			if s.Repetitions != DefaultRepetitions || s.Warmup == nil || *s.Warmup != DefaultWarmup {
				t.Errorf("repetitions %d, warmup %v: want the defaults %d and %d", s.Repetitions, s.Warmup, DefaultRepetitions, DefaultWarmup)
			}
		})
	}
}
