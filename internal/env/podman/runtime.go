package podman

import (
	"context"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
)

// The runtime option on Podman (podman-bridge+runtime=runsc): the OCI
// runtime that makes the container, runc (Go), crun (C) or runsc
// (gVisor: a user-space kernel between the workload and Linux).
//
// Podman 4.3.1 ignores a runtime asked for per container, in its
// Docker-compatible create (HostConfig.Runtime) and in its own libpod
// create (oci_runtime) alike: both made crun containers on a service whose
// default is crun. The runtime of a Podman service is what it was started
// with (podman --runtime), so boxtax starts one service per runtime for
// the study, and reads what each container really got from Podman's own
// inspect (OCIRuntime), which the run records.

// podmanRuntimes are the runtimes the Podman environments take, with the
// Debian package that has each.
var podmanRuntimes = map[string]string{"runc": "runc", "crun": "crun", "runsc": "runsc"}

// gVisorNetwork is the network mode runsc gets under Podman: hostinet,
// gVisor passing the container's socket calls to the Linux network stack
// of the container's own network namespace (Podman's veth into its bridge,
// the host's stack, or only a loopback). gVisor's own stack (netstack,
// runsc's default, network=sandbox) refuses to start under Podman here:
// "cannot run with network enabled in root network namespace".
const gVisorNetwork = "host"

// runtimeServiceArgs are podman's global flags for a service whose
// containers the runtime makes.
func runtimeServiceArgs(runtime string) []string {
	args := []string{"--runtime", runtime}
	if runtime == "runsc" {
		args = append(args, "--runtime-flag", "network="+gVisorNetwork)
	}
	return args
}

// checkPodmanRuntime refuses, before the study, a runtime that cannot run
// containers here, saying why and what to do.
func (p *podmanEnv) checkPodmanRuntime() error {
	rt := p.Options().Variant["runtime"]
	if rt == "" {
		return nil
	}
	pkg, ok := podmanRuntimes[rt]
	if !ok {
		return fmt.Errorf("runtime=%s: the Podman environments take the runtimes %s", rt, strings.Join(slices.Sorted(maps.Keys(podmanRuntimes)), ", "))
	}
	if _, err := exec.LookPath(rt); err != nil {
		return fmt.Errorf("runtime=%s: %s is not installed (Debian/Ubuntu: apt-get install %s)", rt, rt, pkg)
	}
	if rt == "crun" && cgroupHybrid() {
		return fmt.Errorf("runtime=crun: crun cannot run containers on this host's hybrid cgroup layout " +
			"(cgroup v1 controllers with cgroup2 mounted beside them: \"cgroups in hybrid mode not supported\"): " +
			"measure it on a host with cgroup v2 alone (systemd.unified_cgroup_hierarchy=1), or leave it out")
	}
	if rt == "runsc" && p.rootless {
		return fmt.Errorf("runtime=runsc: boxtax runs gVisor under rootful Podman only (runsc under rootless Podman has not been tried with boxtax): use podman-bridge+runtime=runsc")
	}
	if rt == "runsc" && p.Options().Variant["userns"] == "auto" {
		return fmt.Errorf("runtime=runsc: gVisor with a user namespace per container (userns=auto) has not been tried with boxtax: leave one of the two out")
	}
	return nil
}

// gVisorRefuses says why gVisor cannot run a worker with spec, or "": it
// gives threads no real-time scheduling (SCHED_FIFO and SCHED_RR are
// refused by its kernel) and no real-time CPU budget in a cgroup, so a
// real-time workload would measure something else or fail run by run.
func gVisorRefuses(spec env.Spec) string {
	if spec.CPURealtimeRuntimeUs > 0 || slices.Contains(spec.CapAdd, "SYS_NICE") {
		return "gVisor (runsc) gives no real-time scheduling: its kernel refuses SCHED_FIFO and SCHED_RR, so a real-time workload cannot be measured in it; run it in the runc variant"
	}
	return ""
}

// recordRuntime puts in the run's settings the runtime the container really
// got, from Podman's own inspect; with runsc, the network mode gVisor ran.
func (p *podmanEnv) recordRuntime(ctx context.Context, s env.Settings) error {
	id := s["container_id"]
	ct, err := p.Client().LibpodContainerInspect(ctx, id)
	if err != nil {
		return err
	}
	s["oci_runtime"] = ct.OCIRuntime
	if want := p.Options().Variant["runtime"]; want != "" {
		s["runtime"] = ct.OCIRuntime
		if ct.OCIRuntime != want && !strings.HasSuffix(ct.OCIRuntime, "/"+want) {
			return fmt.Errorf("runtime=%s: Podman made container %s with %s instead", want, env.ShortID(id), ct.OCIRuntime)
		}
		if want == "runsc" {
			s["gvisor_network"] = gVisorNetwork
		}
	}
	return nil
}

// CheckSpec implements SpecChecker for Podman: Docker's checks, and what
// gVisor cannot run refused before the study (gVisorRefuses).
func (p *podmanEnv) CheckSpec(ctx context.Context, spec env.Spec) error {
	if why := gVisorRefuses(spec); why != "" && p.Options().Variant["runtime"] == "runsc" {
		return fmt.Errorf("%s: %s", p.Name(), why)
	}
	return p.Env.CheckSpec(ctx, spec)
}
