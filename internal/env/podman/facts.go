package podman

import (
	"context"
	"os/exec"

	"github.com/boxtax/boxtax/internal/env"
	dockerenv "github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

// FactsKey implements env.FactTeller: the Podman service's facts, the
// rootless one's apart.
func (p *podmanEnv) FactsKey() string {
	if p.rootless {
		return "podman_rootless"
	}
	return "podman"
}

// Facts implements env.FactTeller: the Podman service found or started for
// the environment, asked; why it could not be found or started where
// Podman is installed; nil before Available or where Podman is not.
func (p *podmanEnv) Facts(ctx context.Context) hostinfo.Engine {
	if c := p.Client(); c != nil {
		d := dockerenv.AskEngine(ctx, c)
		d.Host = p.ServiceOrigin()
		if p.Options().Variant["runtime"] != "" { // this service's runtime is one of several
			d.OCIRuntime = "one Podman service per runtime option; each run records its oci_runtime"
		}
		return &hostinfo.Podman{Docker: *d}
	}
	p.mu.Lock()
	openErr := p.openErr
	p.mu.Unlock()
	if _, err := exec.LookPath("podman"); openErr == nil || err != nil {
		return nil
	}
	return &hostinfo.Podman{Docker: hostinfo.Docker{Error: openErr.Error(), Rootless: p.rootless}}
}

var _ env.FactTeller = (*podmanEnv)(nil)
