package study

import (
	"strings"

	"github.com/boxtax/boxtax/internal/env"
)

// checkBaseline names the baseline canonically, as Validate names the
// environments, so that a baseline spelled otherwise than its environment
// (options in another order, 1.50 for 1.5, an option restating the
// default) is that environment. A baseline naming an environment already
// reported as invalid adds no error of its own: "baseline X is not one of
// the study's environments (X)" contradicted itself (issue 25, item 23).
// seenEnv holds the valid environments by canonical name, invalidEnv the
// invalid ones as written.
func (s *Spec) checkBaseline(seenEnv map[string]string, invalidEnv map[string]bool, bad func(Pos, string, ...any)) {
	if s.Baseline == "" || invalidEnv[s.Baseline] {
		return
	}
	canon := s.Baseline
	if c, err := env.Check(s.Baseline); err == nil {
		canon = c
	}
	if _, ok := seenEnv[canon]; ok {
		s.Baseline = canon
		return
	}
	var valid []string
	for _, e := range s.Envs {
		if _, ok := seenEnv[e.Name]; ok {
			valid = append(valid, e.Name)
		}
	}
	bad(Pos{}, "baseline %q is not one of the study's environments; name one of: %s", s.Baseline, strings.Join(valid, ", "))
}
