package gate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/report"
)

// Scope is what a study contains, which a rule must name.
type Scope struct {
	Baseline  string
	Envs      []string // every environment, the baseline included
	Workloads []string
}

// ScopeOf is what the report's study contains: its spec's environments
// and workloads, and any its cells have.
func ScopeOf(r *report.Report) Scope {
	scope := Scope{Baseline: r.Study.Baseline}
	add := func(xs []string, x string) []string {
		if x == "" || slices.Contains(xs, x) {
			return xs
		}
		return append(xs, x)
	}
	for _, e := range r.Layout().Envs {
		scope.Envs = add(scope.Envs, e)
	}
	for _, w := range r.Layout().Workloads {
		scope.Workloads = add(scope.Workloads, w)
	}
	for _, c := range r.Cells {
		scope.Envs, scope.Workloads = add(scope.Envs, c.Env), add(scope.Workloads, c.Workload)
	}
	return scope
}

// Check refuses a rule that names an environment or a workload the study
// does not contain, or the baseline, so that a typo or a changed study
// cannot pass the gate by matching nothing.
func (s Scope) Check(rules []Rule) error {
	var others []string
	for _, e := range s.Envs {
		if e != s.Baseline {
			others = append(others, e)
		}
	}
	for _, r := range rules {
		switch {
		case r.Env == All && len(others) == 0:
			return fmt.Errorf("--max-overhead %q: the study has no environment besides its baseline %s, so no overhead to check", plainText(r.Text), s.Baseline)
		case r.Env == s.Baseline:
			return fmt.Errorf("--max-overhead %q: %s is the study's baseline, the environment the others are compared with; name one of: *, %s", plainText(r.Text), r.Env, strings.Join(others, ", "))
		case r.Env != All && !slices.Contains(s.Envs, r.Env):
			return fmt.Errorf("--max-overhead %q: the study has no environment %s; its environments besides the baseline %s: %s", plainText(r.Text), r.Env, s.Baseline, strings.Join(others, ", "))
		case r.Workload != All && !slices.Contains(s.Workloads, r.Workload):
			return fmt.Errorf("--max-overhead %q: the study has no workload %s; its workloads: %s", plainText(r.Text), r.Workload, strings.Join(s.Workloads, ", "))
		}
	}
	return nil
}
