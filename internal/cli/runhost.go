package cli

import (
	"context"
	"maps"
	"slices"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/study"
)

// hostFacts collects the facts of this host a new study records (study.Run
// adds which device of a fleet this is and what was left out): those of
// the container engines the study's environments use, opened or left out
// as unavailable, as each engine tells them (env.EngineFacts).
func hostFacts(g *Globals) func(context.Context, *study.Spec, map[string]env.Environment, map[string]string) hostinfo.Host {
	return func(ctx context.Context, _ *study.Spec, envs map[string]env.Environment, unavailable map[string]string) hostinfo.Host {
		host := hostinfo.Collect(g.Version)
		o := env.Options{BinaryPath: g.Executable, Version: g.Version, Getenv: g.Getenv}
		host.Engines = env.EngineFacts(ctx, envs, slices.Sorted(maps.Keys(unavailable)), o)
		return host
	}
}
