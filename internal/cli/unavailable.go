package cli

import (
	"context"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/study"
)

// dropUnavailable leaves out of spec the environments that cannot run on
// this machine (Docker missing on one device of a fleet, say) and returns
// them with the reason, for the host facts and the reports. It refuses when
// none is left or the baseline is among them: then there is nothing to
// compare.
func dropUnavailable(ctx context.Context, g *Globals, spec *study.Spec) (map[string]string, error) {
	opts := env.Options{BinaryPath: g.Executable, Version: g.Version}
	dropped := map[string]string{}
	for _, n := range spec.EnvNames() {
		e, err := env.New(n, opts)
		if err != nil {
			return nil, usageError{err}
		}
		if err := e.Available(ctx); err != nil {
			dropped[n] = err.Error()
		}
		if err := env.CloseAll(ctx, map[string]env.Environment{n: e}); err != nil {
			warn(g, "%v", err)
		}
	}
	if len(dropped) == 0 {
		return nil, nil
	}
	names := sortedKeys(dropped)
	if _, ok := dropped[spec.Baseline]; ok {
		return nil, usagef("the baseline environment %s is not available here (%s): nothing to compare the others with", spec.Baseline, dropped[spec.Baseline])
	}
	spec.Envs = slices.DeleteFunc(spec.Envs, func(n study.Named) bool { _, gone := dropped[n.Name]; return gone })
	if len(spec.Envs) == 0 {
		return nil, usagef("no environment of this study is available here: %s", strings.Join(names, ", "))
	}
	for _, n := range names {
		warn(g, "environment %s is not available here, its cells are left out (--skip-unavailable): %s", n, dropped[n])
	}
	return dropped, nil
}
