package podman

import (
	"context"
	"fmt"
	"os/exec"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	dockerenv "github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/hostinfo"
)

func init() {
	hostinfo.RegisterEngine("podman", 2, func() hostinfo.Engine { return new(EngineFacts) })
	hostinfo.RegisterEngine("podman_rootless", 3, func() hostinfo.Engine { return new(EngineFacts) })
}

// EngineFacts are what a Podman service tells about itself, asked through its
// Docker-compatible API: Docker's facts (and JSON), told with the OCI
// runtime, which Podman picks per host (crun or runc).
type EngineFacts struct {
	dockerenv.EngineFacts
}

// Summary is Docker's with the OCI runtime, e.g. "Podman Engine 4.3.1,
// API 1.41, overlay, runtime crun"; empty when unknown.
func (p *EngineFacts) Summary() string { return p.SummaryWith(true) }

// Detail is the service at its address with the API version, storage,
// runtime and cgroups, or why it could not be asked.
func (p *EngineFacts) Detail() string {
	d := &p.EngineFacts
	if d.Error != "" {
		return "unavailable: " + d.Error
	}
	rootless := ""
	if d.Rootless {
		rootless = ", rootless"
	}
	return fmt.Sprintf("%s at %s, API %s, storage %s, runtime %s, cgroup v%s %s%s",
		d.Name(), d.Host, d.APIVersion, d.StorageDriver, d.OCIRuntime, d.CgroupVersion, d.CgroupDriver, rootless)
}

// Facts are the service in a row (beside Docker's, which has rows of its
// own), or why it was not asked.
func (p *EngineFacts) Facts() []hostinfo.Fact {
	name := "Podman service"
	if p.Rootless {
		name = "rootless Podman service"
	}
	if p.Error != "" {
		return []hostinfo.Fact{{Name: name, Value: "not asked: " + p.Error}}
	}
	return []hostinfo.Fact{{Name: name, Value: p.Summary() + ", cgroups " + strings.Trim(p.CgroupVersion+" "+p.CgroupDriver, " ")}}
}

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
		return &EngineFacts{EngineFacts: *d}
	}
	p.mu.Lock()
	openErr := p.openErr
	p.mu.Unlock()
	if _, err := exec.LookPath("podman"); openErr == nil || err != nil {
		return nil
	}
	return &EngineFacts{EngineFacts: dockerenv.EngineFacts{Error: openErr.Error(), Rootless: p.rootless}}
}

var _ env.FactTeller = (*podmanEnv)(nil)
