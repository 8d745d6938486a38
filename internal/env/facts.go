package env

import (
	"context"
	"maps"
	"slices"

	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactTeller is implemented by environments that run in an engine which
// can tell about itself (its version, API, storage, cgroups): the facts
// are recorded with every study that uses it, in hostinfo.Host.Engines.
type FactTeller interface {
	// FactsKey names the engine's facts in hostinfo.Host.Engines; the
	// environments of one engine share it (docker-bridge and docker-host:
	// "docker").
	FactsKey() string
	// Facts asks the engine about itself: an engine that cannot be asked
	// tells why (Error); nil when it has nothing to tell here (Podman's
	// service not started, LXC not installed).
	Facts(ctx context.Context) hostinfo.Engine
}

// The engines' facts as they read back from a stored study, in the order
// boxtax sysinfo lists them. A new engine registers its key here.
func init() {
	hostinfo.RegisterEngine("docker", func() hostinfo.Engine { return new(hostinfo.Docker) })
	hostinfo.RegisterEngine("podman", func() hostinfo.Engine { return new(hostinfo.Podman) })
	hostinfo.RegisterEngine("podman_rootless", func() hostinfo.Engine { return new(hostinfo.Podman) })
	hostinfo.RegisterEngine("lxc", func() hostinfo.Engine { return new(hostinfo.LXC) })
}

// FactsKey is the key under which the engine of the named environment
// (options allowed) records its facts; empty for an environment without
// an engine (native) or an unknown name.
func FactsKey(name string) string {
	e, err := New(name, Options{})
	if err != nil {
		return ""
	}
	if t, ok := e.(FactTeller); ok {
		return t.FactsKey()
	}
	return ""
}

// UsesEngine tells whether any of the named environments runs in the
// engine whose facts are recorded under key (e.g. "docker").
func UsesEngine(names []string, key string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return FactsKey(n) == key })
}

// EngineFacts asks the engines of a study's environments about themselves,
// once per engine: those of the opened environments (Podman's through the
// service opened for the study), and those of environments left out as
// unavailable, which tell why (Docker's unreachable daemon), or nothing.
func EngineFacts(ctx context.Context, opened map[string]Environment, unavailable []string, o Options) map[string]hostinfo.Engine {
	out := map[string]hostinfo.Engine{}
	ask := func(e Environment) {
		t, ok := e.(FactTeller)
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
	for _, name := range slices.Sorted(maps.Keys(opened)) {
		ask(opened[name])
	}
	for _, name := range slices.Sorted(slices.Values(unavailable)) {
		if e, err := New(name, o); err == nil {
			ask(e)
		}
	}
	return out
}

// HostFacts are this host's facts (hostinfo.Collect) with every installed
// engine's (HostEngines), as boxtax sysinfo shows them.
func HostFacts(ctx context.Context, o Options) hostinfo.Host {
	h := hostinfo.Collect(o.Version)
	h.Engines = HostEngines(ctx, o)
	return h
}

// HostEngines asks every engine installed here about itself, for boxtax
// sysinfo: one environment of each is made, checked (which finds or starts
// Podman's service), asked and closed.
func HostEngines(ctx context.Context, o Options) map[string]hostinfo.Engine {
	out := map[string]hostinfo.Engine{}
	for _, name := range oneOfEachEngine {
		e, err := New(name, o)
		if err != nil {
			continue
		}
		envs := map[string]Environment{name: e}
		_ = e.Available(ctx) // an engine that cannot run tells why in its facts
		if t, ok := e.(FactTeller); ok {
			if f := t.Facts(ctx); f != nil {
				out[t.FactsKey()] = f
			}
		}
		_ = CloseAll(ctx, envs)
	}
	return out
}
