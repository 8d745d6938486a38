package study

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
)

// dropUnavailable leaves out of spec the environments that cannot run on
// this machine (Docker missing on one device of a fleet, say) and returns
// them with the reason, for the host facts and the reports. It refuses when
// none is left or the baseline is among them: then there is nothing to
// compare.
func (p Process) dropUnavailable(ctx context.Context, spec *Spec) (map[string]string, error) {
	dropped := map[string]string{}
	for _, n := range spec.EnvNames() {
		e, err := engines.New(n, p.Env)
		if err != nil {
			return nil, refused(err)
		}
		if err := e.Available(ctx); err != nil {
			dropped[n] = err.Error()
		}
		if err := env.CloseAll(ctx, map[string]env.Environment{n: e}); err != nil {
			p.warn("%v", err)
		}
	}
	if len(dropped) == 0 {
		return nil, nil
	}
	names := slices.Sorted(maps.Keys(dropped))
	if _, ok := dropped[spec.Baseline]; ok {
		return nil, refused(fmt.Errorf("the baseline environment %s is not available here (%s): nothing to compare the others with", spec.Baseline, dropped[spec.Baseline]))
	}
	spec.Envs = slices.DeleteFunc(spec.Envs, func(n Named) bool { _, gone := dropped[n.Name]; return gone })
	if len(spec.Envs) == 0 {
		return nil, refused(fmt.Errorf("no environment of this study is available here: %s", strings.Join(names, ", ")))
	}
	for _, n := range names {
		p.warn("environment %s is not available here, its cells are left out (--skip-unavailable): %s", n, dropped[n])
	}
	return dropped, nil
}

// openEnvs makes the named environments, checks that each can run here and
// prepares it (e.g. builds the worker image). An environment that cannot run
// is refused with the ones that can named.
func (p Process) openEnvs(ctx context.Context, names []string) (map[string]env.Environment, error) {
	out := map[string]env.Environment{}
	var problems, usable []string
	made := map[string]env.Environment{} // closed on refusal: Available may have started a Podman service
	closeMade := func() {
		if err := env.CloseAll(ctx, made); err != nil {
			p.warn("%v", err)
		}
	}
	for _, n := range names {
		e, err := engines.New(n, p.Env)
		if err != nil {
			closeMade()
			return nil, refused(err)
		}
		made[n] = e
		if err := e.Available(ctx); err != nil {
			problems = append(problems, fmt.Sprintf("environment %s is not available: %v", n, err))
			continue
		}
		usable = append(usable, n)
		out[n] = e
	}
	if len(problems) > 0 {
		closeMade()
		hint := "no environment of this study can run here"
		if len(usable) > 0 {
			hint = "to run without it: --envs " + strings.Join(usable, ",")
		}
		return nil, refused(fmt.Errorf("%s\n%s", strings.Join(problems, "\n"), hint))
	}
	for _, n := range names {
		if err := out[n].Prepare(ctx); err != nil {
			return nil, errors.Join(fmt.Errorf("preparing environment %s: %w", n, err), env.CloseAll(ctx, out))
		}
	}
	return out, nil
}
