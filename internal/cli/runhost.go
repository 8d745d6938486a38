package cli

import (
	"context"
	"maps"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
	"github.com/boxtax/boxtax/internal/study"
)

// hostFacts collects the facts of this host a new study records (study.Run
// adds which device of a fleet this is and what was left out): the
// container engines' only when the study uses them.
func hostFacts(g *Globals) func(context.Context, *study.Spec, map[string]env.Environment, map[string]string) hostinfo.Host {
	return func(ctx context.Context, spec *study.Spec, envs map[string]env.Environment, unavailable map[string]string) hostinfo.Host {
		host := collectHost(ctx, g, hasDocker(spec.EnvNames()) || hasDocker(slices.Sorted(maps.Keys(unavailable))))
		host.Podman, host.PodmanRootless = podmanFacts(ctx, envs, false), podmanFacts(ctx, envs, true)
		if slices.ContainsFunc(spec.EnvNames(), func(n string) bool { return env.BaseName(n) == "lxc" }) {
			host.LXC = hostinfo.CollectLXC(ctx)
		}
		return host
	}
}

func hasDocker(envs []string) bool {
	for _, e := range envs {
		if strings.HasPrefix(e, "docker") {
			return true
		}
	}
	return false
}

// collectHost gathers the host facts; docker facts only when asked.
func collectHost(ctx context.Context, g *Globals, withDocker bool) hostinfo.Host {
	h := hostinfo.Collect(g.Version)
	if withDocker {
		h.Docker = dockerFacts(ctx)
	}
	return h
}
