package cli

import (
	"context"
	"maps"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// dockerFacts and podmanFacts remain for cli/run.go's studyHost and
// collectHost only, which set hostinfo.Host's deprecated fields per engine.
// When run.go moves to the study's lifecycle (issue 26), studyHost sets
//
//	host.Engines = env.EngineFacts(ctx, envs, sortedKeys(unavailable), opts)
//
// instead of collectHost's Docker facts, podmanFacts and CollectLXC, and
// this file goes.

// dockerFacts asks the Docker engine about itself (env.EngineFacts).
func dockerFacts(ctx context.Context) *hostinfo.Docker {
	d, _ := env.EngineFacts(ctx, nil, []string{"docker-bridge"}, env.Options{})["docker"].(*hostinfo.Docker)
	return d
}

// podmanFacts asks the Podman service of an opened podman environment
// (podman-bridge or podman-host, or with rootless podman-rootless) about
// itself; nil when envs has none.
func podmanFacts(ctx context.Context, envs map[string]env.Environment, rootless bool) *hostinfo.Docker {
	key := "podman"
	if rootless {
		key = "podman_rootless"
	}
	of := maps.Clone(envs)
	maps.DeleteFunc(of, func(name string, _ env.Environment) bool { return env.FactsKey(name) != key })
	if p, ok := env.EngineFacts(ctx, of, nil, env.Options{})[key].(*hostinfo.Podman); ok {
		return &p.Docker
	}
	return nil
}
