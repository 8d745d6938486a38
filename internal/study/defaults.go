package study

// FillDefaults sets what a spec may leave out: the repetitions, the
// warm-up rounds and the baseline. Normalize calls it first; a stored spec,
// which is read back without validating it again, gets it from Open.
func (s *Spec) FillDefaults() {
	if s.Repetitions == 0 {
		s.Repetitions = DefaultRepetitions
	}
	if s.Warmup == nil {
		w := DefaultWarmup
		s.Warmup = &w
	}
	if s.Baseline == "" && len(s.Envs) > 0 {
		s.Baseline = s.defaultBaseline()
	}
}

// defaultBaseline is the environment the others are compared with when
// the spec names none: native when the study runs it, else the first.
func (s *Spec) defaultBaseline() string {
	for _, e := range s.Envs {
		if e.Name == "native" {
			return "native"
		}
	}
	return s.Envs[0].Name
}
