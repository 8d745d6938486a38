package engines

import (
	"context"
	"maps"
	"slices"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactsKey is the key under which the engine of the named environment
// (options allowed) records its facts; empty for an environment without
// an engine (native) or an unknown name.
func FactsKey(name string) string {
	e, err := New(name, env.Options{})
	if err != nil {
		return ""
	}
	if t, ok := e.(env.FactTeller); ok {
		return t.FactsKey()
	}
	return ""
}

// EngineFacts asks the engines of a study's environments about themselves,
// once per engine: those of the opened environments (Podman's through the
// service opened for the study), and those of environments left out as
// unavailable, which tell why (Docker's unreachable daemon), or nothing.
func EngineFacts(ctx context.Context, opened map[string]env.Environment, unavailable []string, o env.Options) map[string]hostinfo.Engine {
	out := map[string]hostinfo.Engine{}
	for _, name := range slices.Sorted(maps.Keys(opened)) {
		ask(ctx, out, opened[name])
	}
	for _, name := range slices.Sorted(slices.Values(unavailable)) {
		if e, err := New(name, o); err == nil {
			ask(ctx, out, e)
		}
	}
	return out
}

// ask puts in out the facts of e's engine, unless out has them already.
func ask(ctx context.Context, out map[string]hostinfo.Engine, e env.Environment) {
	t, ok := e.(env.FactTeller)
	if !ok {
		return
	}
	if _, done := out[t.FactsKey()]; done {
		return
	}
	if f := t.Facts(ctx); f != nil {
		out[t.FactsKey()] = f
	}
}

// HostFacts are this host's facts (hostinfo.Collect) with every installed
// engine's (HostEngines), as boxtax sysinfo shows them.
func HostFacts(ctx context.Context, o env.Options) hostinfo.Host {
	h := hostinfo.Collect(o.Version)
	h.Engines = HostEngines(ctx, o)
	return h
}

// HostEngines asks every engine installed here about itself, for boxtax
// sysinfo: one environment of each is made, checked (which finds or starts
// Podman's service), asked and closed.
func HostEngines(ctx context.Context, o env.Options) map[string]hostinfo.Engine {
	out := map[string]hostinfo.Engine{}
	for _, name := range oneOfEachEngine {
		e, err := New(name, o)
		if err != nil {
			continue
		}
		_ = e.Available(ctx) // an engine that cannot run tells why in its facts
		ask(ctx, out, e)
		_ = env.CloseAll(ctx, map[string]env.Environment{name: e})
	}
	return out
}
