// Package engines opens an environment by name: native and each engine's
// (env/docker, env/podman, env/lxc), with the options its name carries. It
// is the one place that knows every environment; the rest of boxtax reads
// them through package env's interfaces.
package engines

import (
	"context"

	dockerapi "github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/env/lxc"
	"github.com/boxtax/boxtax/internal/env/podman"
	"github.com/boxtax/boxtax/internal/registry"
)

var factories = func() *registry.Registry[env.Factory] {
	r := &registry.Registry[env.Factory]{
		Unknown: "unknown environment %q; valid environments: %s",
		First:   []string{"native"},
	}
	r.Register("native", env.Native)
	for _, engine := range []map[string]env.Factory{docker.Environments(), podman.Environments(), lxc.Environments()} {
		for name, f := range engine {
			r.Register(name, f)
		}
	}
	return r
}()

// Register adds an environment factory under a name (a test's environment).
func Register(name string, f env.Factory) { factories.Register(name, f) }

// Names lists the environments, native first, then in name order.
func Names() []string { return factories.Names() }

// Check checks an environment name with options (docker-bridge+seccomp=unconfined)
// without making anything, and returns it in canonical form.
func Check(name string) (string, error) {
	e, err := New(name, env.Options{})
	if err != nil {
		return "", err
	}
	return e.Name(), nil
}

// New makes the named environment; an unknown name yields an error listing the valid ones.
// A name may carry options (docker-bridge+seccomp=unconfined, env/options.go):
// the environment is made with them and is named canonically (env.Make).
func New(name string, o env.Options) (env.Environment, error) {
	base, v, err := env.ParseName(name)
	if err != nil {
		return nil, err
	}
	f, err := factories.Lookup(base)
	if err != nil {
		return nil, err
	}
	return env.Make(base, f, o, v)
}

// InspectImage reads the image name's config from Docker, moving it there
// from Podman when only Podman has it (env.InspectImage).
func InspectImage(ctx context.Context, name string, o env.Options) (env.ImageConfig, error) {
	return env.InspectImage(ctx, name, o, func(ctx context.Context, name string, to *dockerapi.Client) error {
		return podman.ImageToDocker(ctx, name, to, o)
	})
}
