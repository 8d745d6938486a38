package env

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// What a study is refused for before its first run, rather than failing
// run by run in one environment while native succeeds (issue 25, item 14):
// options this host cannot give (Available, through CheckVariantHost) and
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

// CheckVariantHost refuses the options this host cannot give: a cpuset of
// CPUs it does not have, a cpus quota above its CPUs (an engine refuses
// both at create), apparmor where the kernel has AppArmor off. hostCPUs
// are the CPUs containers may use here.
func CheckVariantHost(v Variant, hostCPUs cpuset.Set) error {
	if val, ok := v["apparmor"]; ok && !AppArmorEnabled() {
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
		if n := len(hostCPUs); CPUsNano(val) > int64(n)*1e9 {
			return fmt.Errorf("cpus=%s: this host has %d CPUs, and an engine refuses a quota above them: give at most cpus=%d", val, n, n)
		}
	}
	return nil
}

// FirstCPUs is CPUs 0 to n-1: an engine's CPUs when it tells only their
// number.
func FirstCPUs(n int) cpuset.Set {
	s := make(cpuset.Set, n)
	for i := range s {
		s[i] = i
	}
	return s
}

// CheckHostFiles makes sure the host programs and files of spec can go
// into an image or root filesystem (hostimage.Build: a --file link that
// leads out of its directory is an error), without making one.
func CheckHostFiles(spec Spec) error {
	if len(spec.HostPrograms) == 0 {
		return nil
	}
	if _, err := hostimage.Build(HostProgramList(spec.HostPrograms), hostimage.Options{Files: HostProgramList(spec.HostFiles)}); err != nil {
		return fmt.Errorf("the image with host programs: %w", err)
	}
	return nil
}
