package study

import (
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
)

// ExplainOptions are the options `boxtax run --explain` switches, each
// alone and then all at once, in every container environment of the
// study: those the attribution preset uses, each switching one mechanism
// off (the network path, the system-call filter, the layered storage for
// scratch files). The report reads each variant's part of the overhead
// (docs/attribution.md), and report.Advise the option that removes most
// of a cost, measured on the study's own workloads (a --cmd included).
var ExplainOptions = []string{"network=host", "seccomp=unconfined", "storage=bind"}

// AddExplainVariants adds, after each environment of the spec that is
// not the baseline and has no options of its own, its variants with each
// of ExplainOptions that it takes, and the variant with all of those at
// once when it takes two or more (the rest: namespaces, cgroups, the
// runtime). An option an environment does not take (LXC's storage) or
// already has (docker-host's network=host) is left out: env.Check says
// which, so nothing here reads an environment's name. It returns the
// environments added.
func (s *Spec) AddExplainVariants() []string {
	have := map[string]bool{}
	for _, e := range s.Envs {
		have[e.Name] = true
	}
	var out []Named
	var added []string
	add := func(name string) {
		if !have[name] {
			have[name] = true
			out = append(out, Named{Name: name})
			added = append(added, name)
		}
	}
	for _, e := range s.Envs {
		out = append(out, e)
		if _, v, err := env.ParseName(e.Name); e.Name == s.Baseline || err != nil || len(v) > 0 {
			continue
		}
		var taken []string
		for _, opt := range ExplainOptions {
			if name, err := engines.Check(e.Name + "+" + opt); err == nil && name != e.Name {
				add(name)
				taken = append(taken, opt)
			}
		}
		if len(taken) >= 2 {
			if name, err := engines.Check(e.Name + "+" + strings.Join(taken, "+")); err == nil {
				add(name)
			}
		}
	}
	s.Envs = slices.Clip(out)
	return added
}
