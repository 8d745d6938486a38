package study

import "strings"

// checkBaseline refuses a baseline that is none of the study's
// environments (Normalize has named it canonically, as the environments,
// so that a baseline spelled otherwise than its environment is that
// environment). A baseline naming an environment already
// reported as invalid adds no error of its own: "baseline X is not one of
// the study's environments (X)" contradicted itself (issue 25, item 23).
// seenEnv holds the valid environments by canonical name, invalidEnv the
// invalid ones as written.
func (s *Spec) checkBaseline(seenEnv map[string]string, invalidEnv map[string]bool, bad func(Pos, string, ...any)) {
	if s.Baseline == "" || invalidEnv[s.Baseline] {
		return
	}
	if _, ok := seenEnv[s.Baseline]; ok {
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
