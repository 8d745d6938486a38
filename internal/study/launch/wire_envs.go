package launch

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
)

// CheckWireEnvs refuses, before a study of a network workload starts, a wire
// level that one of its environments cannot serve (the proxy level in an environment without
// a userland proxy), naming the levels and environments that can run.
func CheckWireEnvs(levels []string, envs map[string]env.Environment) error {
	proxy := false
	var others []string
	for _, lv := range levels {
		if l, err := ParseWireLevel(lv); err == nil && l.Proxy {
			proxy = true
		} else {
			others = append(others, lv)
		}
	}
	if !proxy {
		return nil
	}
	var problems, fine []string
	for _, name := range slices.Sorted(maps.Keys(envs)) {
		if n, ok := envs[name].(env.NoLoopbackPorts); ok {
			problems = append(problems, fmt.Sprintf("environment %s: %s", name, n.NoLoopbackPorts()))
		} else {
			fine = append(fine, name)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	hint := "to run without it: --wire host or --wire netns"
	if len(others) > 0 {
		hint = "to run without it: --wire " + strings.Join(others, ",")
	}
	if len(fine) > 0 {
		hint += ", or --envs " + strings.Join(fine, ",")
	}
	return fmt.Errorf("wire level proxy cannot run in every environment of the study:\n%s\n%s", strings.Join(problems, "\n"), hint)
}
