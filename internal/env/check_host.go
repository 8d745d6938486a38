package env

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// What a study is refused for before its first run, rather than failing
// run by run in one environment while native succeeds (issue 25, item 14):
// options this host cannot give (Available, through checkVariantHost) and
// what one run's spec needs (SpecChecker).

// SpecChecker is implemented by environments that can tell, before a
// study's first run, whether a worker with spec can start: its image is on
// the engine, its host programs and files can go into one, the runtime
// can give what it needs of the kernel (gVisor: no real-time). It reads
// only Image, HostPrograms, HostFiles, CapAdd and CPURealtimeRuntimeUs (a
// study asks once for each).
type SpecChecker interface {
	CheckSpec(ctx context.Context, spec Spec) error
}

// checkVariantHost refuses the options this host cannot give: a cpuset of
// CPUs it does not have, a cpus quota above its CPUs (an engine refuses
// both at create), apparmor where the kernel has AppArmor off. hostCPUs
// are the CPUs containers may use here.
func checkVariantHost(v Variant, hostCPUs cpuset.Set) error {
	if val, ok := v["apparmor"]; ok && !appArmorEnabled() {
		return fmt.Errorf("apparmor=%s: this kernel has AppArmor off, so containers have no profile to switch: leave the option out", val)
	}
	if val := v["cpuset"]; val != "" {
		want, err := cpuset.Parse(val)
		if err != nil {
			return fmt.Errorf("cpuset=%s: %w", val, err)
		}
		if err := want.Within(hostCPUs); err != nil {
			return fmt.Errorf("cpuset=%s: %w: name CPUs it has, e.g. cpuset=%d", val, err, hostCPUs[len(hostCPUs)-1])
		}
	}
	if val := v["cpus"]; val != "" {
		if n := len(hostCPUs); cpusNano(val) > int64(n)*1e9 {
			return fmt.Errorf("cpus=%s: this host has %d CPUs, and an engine refuses a quota above them: give at most cpus=%d", val, n, n)
		}
	}
	return nil
}

// firstCPUs is CPUs 0 to n-1: an engine's CPUs when it tells only their
// number.
func firstCPUs(n int) cpuset.Set {
	s := make(cpuset.Set, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// checkHostFiles makes sure the host programs and files of spec can go
// into an image or root filesystem (hostimage.Build: a --file link that
// leads out of its directory is an error), without making one.
func checkHostFiles(spec Spec) error {
	if len(spec.HostPrograms) == 0 {
		return nil
	}
	if _, err := hostimage.Build(hostProgramList(spec.HostPrograms), hostimage.Options{Files: hostProgramList(spec.HostFiles)}); err != nil {
		return fmt.Errorf("the image with host programs: %w", err)
	}
	return nil
}

// CheckSpec implements SpecChecker for Docker and Podman: the user's
// image is on the engine; the host programs and files can go into one.
func (d *dockerEnv) CheckSpec(ctx context.Context, spec Spec) error {
	if spec.Image != "" {
		if _, err := d.userImage(ctx, spec.Image, spec.ImageID); err != nil {
			return err
		}
		return nil
	}
	if err := checkHostFiles(spec); err != nil {
		return fmt.Errorf("%s: %w", d.name, err)
	}
	return nil
}

// CheckSpec implements SpecChecker for LXC, which runs no image of the
// user's.
func (l *lxcEnv) CheckSpec(ctx context.Context, spec Spec) error {
	if spec.Image != "" {
		_, _, err := l.imageRootfs(ctx, spec)
		return err
	}
	if err := checkHostFiles(spec); err != nil {
		return fmt.Errorf("lxc: %w", err)
	}
	return nil
}
