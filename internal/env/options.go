package env

import (
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/workload"
)

// An environment option switches one mechanism of a container: its network
// path, its system-call filter, where its disk I/O goes, its cgroup limits,
// the OCI runtime that makes it, its user namespace. An environment with
// options is named after its base with each option appended as +key=value,
// e.g. docker-bridge+seccomp=unconfined+storage=bind: that name is the
// run's environment everywhere (plans, the store, every report), so a study
// that lists several variants of one environment compares them as it
// compares environments, and the attribution report reads what each
// switched mechanism changed (docs/attribution.md).
//
// No option adds a privilege: they remove a filter the user names
// (seccomp=unconfined), limit resources, or move files; none makes a
// container privileged or adds a capability.

// OptionInfo describes one option for `boxtax list options` and for errors.
type OptionInfo struct {
	Key       string
	Values    string // the values it takes, e.g. bridge|host|none
	Default   string // what a container gets without it
	Mechanism string // the mechanism it switches, in a phrase
	Envs      string // which environments take it
	// Short names the mechanism in a word or two, as the attribution
	// report does ("CPU quota").
	Short string
	// Removes are the values that switch the mechanism off, leaving what
	// a native process has, each with what it removes in words: their
	// parts of an overhead add up to it (docs/attribution.md).
	Removes map[string]string
	// Swaps are values that put another mechanism in place of the
	// default's, each named in words, as the attribution report says what
	// switching to it changed ("gVisor (runsc), a user-space kernel").
	Swaps map[string]string
	check func(string) (string, error)
	// implied is the value that restates what every environment taking
	// the option does without it (seccomp=default); empty when that
	// depends on the environment (network) or there is none (cpus).
	implied string
}

// OptionCatalogue returns the catalogue of environment options in a fixed order.
func OptionCatalogue() []OptionInfo { return slices.Clone(optionCatalogue) }

var optionCatalogue = []OptionInfo{
	choice(OptionInfo{Key: "network", Default: "the environment's own (bridge with NAT, or host)",
		Mechanism: "the network path: a veth pair into a bridge with NAT and port forwarding (bridge), the host's stack (host), only a loopback (none)",
		Envs:      "docker, podman", Short: "network",
		Removes: map[string]string{"host": "network path (veth, bridge, NAT)", "none": "network path (veth, bridge, NAT)"}}, "bridge", "host", "none"),
	choice(OptionInfo{Key: "seccomp", Default: "default (the engine's system-call filter)",
		Mechanism: "the seccomp system-call filter every system call passes through",
		Envs:      "docker, podman, lxc", implied: "default", Short: "seccomp",
		Removes: map[string]string{"unconfined": "seccomp system-call filter"}}, "default", "unconfined"),
	choice(OptionInfo{Key: "apparmor", Default: "default (the engine's profile, where AppArmor is on)",
		Mechanism: "the AppArmor profile (only where the kernel has AppArmor enabled)",
		Envs:      "docker, podman", implied: "default", Short: "AppArmor",
		Removes: map[string]string{"unconfined": "AppArmor profile"}}, "default", "unconfined"),
	choice(OptionInfo{Key: "storage", Default: "own (the container's layered filesystem: overlay2 or fuse-overlayfs)",
		Mechanism: "where the worker's scratch files (disk workloads) go: the container's own filesystem, a bind-mounted host directory, a named volume, or memory",
		Envs:      "docker, podman", implied: "own", Short: "scratch storage",
		Removes: map[string]string{"bind": "storage layer (the container's own filesystem)"}}, "own", "bind", "volume", "tmpfs"),
	cgroupLimit("cpus", "a number of CPUs, e.g. 1.5", "no quota", "a CFS CPU quota", "--cpus", checkCPUs, "CPU quota"),
	cgroupLimit("cpuset", "CPU list, e.g. 0 or 0-1", "every CPU (or the study's placement)", "a cpuset", "--cpuset-cpus", checkCPUSet, "cpuset"),
	cgroupLimit("memory", "a size, e.g. 512m or 2g", "no limit", "a memory limit", "--memory", checkMemory, "memory limit"),
	{Key: "runtime", Values: "runc|crun|runsc on Podman; a runtime the daemon lists on Docker", Default: "the engine's default runtime",
		Mechanism: "the OCI runtime that sets the container up (runc in Go, crun in C) or runs it in a sandbox (runsc: gVisor, a user-space kernel between the workload and Linux)",
		Envs:      "docker, podman (one Podman service per runtime)", check: checkWord, Short: "OCI runtime",
		Swaps: map[string]string{"runc": "runc, the OCI runtime in Go", "crun": "crun, the OCI runtime in C",
			"runsc": "gVisor (runsc), a user-space kernel between the workload and Linux"}},
	choice(OptionInfo{Key: "userns", Default: "host (no user namespace, for rootful engines)",
		Mechanism: "a user namespace of its own mapping the container's root to unprivileged host IDs (podman run --userns=auto)",
		Envs:      "podman (Docker remaps users daemon-wide only)", implied: "host", Short: "user namespace"}, "host", "auto"),
}

// choice is an option whose value is one of values: its Values lists them
// and its check takes only them, so the list is written once.
func choice(o OptionInfo, values ...string) OptionInfo {
	o.Values, o.check = strings.Join(values, "|"), oneOf(values...)
	return o
}

// cgroupLimit is an option that sets a limit on the container's cgroup, as
// docker run's flag does, in every engine: what is the limit in words.
func cgroupLimit(key, values, def, what, flag string, check func(string) (string, error), short string) OptionInfo {
	return OptionInfo{Key: key, Values: values, Default: def,
		Mechanism: what + " on the container's cgroup (docker run " + flag + ")",
		Envs:      "docker, podman, lxc", check: check, Short: short}
}

// Variant is a set of options by key, values in canonical form.
type Variant map[string]string

// String is the +key=value suffix in key order; empty for no options.
func (v Variant) String() string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(v)) {
		b.WriteString("+" + k + "=" + v[k])
	}
	return b.String()
}

// ParseName splits an environment name into its base and its options,
// checking each option's key and value; the canonical name is
// base + variant.String().
func ParseName(name string) (base string, v Variant, err error) {
	parts := strings.Split(name, "+")
	base = parts[0]
	if len(parts) == 1 {
		return base, nil, nil
	}
	v = Variant{}
	for _, p := range parts[1:] {
		key, value, ok := strings.Cut(p, "=")
		if !ok || key == "" || value == "" {
			return "", nil, fmt.Errorf("environment %q: option %q is not key=value (e.g. %s+seccomp=unconfined)", name, p, base)
		}
		info, ok := optionInfo(key)
		if !ok {
			return "", nil, fmt.Errorf("environment %q: unknown option %q; valid options: %s", name, key, strings.Join(optionKeys(), ", "))
		}
		if _, dup := v[key]; dup {
			return "", nil, fmt.Errorf("environment %q: option %s is given twice", name, key)
		}
		canon, err := info.check(value)
		if err != nil {
			return "", nil, fmt.Errorf("environment %q: option %s: %w", name, key, err)
		}
		v[key] = canon
	}
	return base, v, nil
}

// BaseName is the environment name without its options.
func BaseName(name string) string {
	base, _, _ := strings.Cut(name, "+")
	return base
}

// Option is one option of a variant, key=value.
type Option struct{ Key, Value string }

// String is key=value.
func (o Option) String() string { return o.Key + "=" + o.Value }

// Options are the variant's options in key order.
func (v Variant) Options() []Option {
	var out []Option
	for _, k := range slices.Sorted(maps.Keys(v)) {
		out = append(out, Option{k, v[k]})
	}
	return out
}

// Removes says what the option switches off, leaving what a native process
// has ("seccomp system-call filter" for seccomp=unconfined); false for an
// option that swaps or adds a mechanism (runtime=crun, cpus=1).
func (o Option) Removes() (string, bool) {
	info, _ := optionInfo(o.Key)
	what, ok := info.Removes[o.Value]
	return what, ok
}

// Mechanism names in a word or two what the option switches ("CPU quota"),
// or what its value puts in place ("gVisor (runsc), a user-space kernel").
func (o Option) Mechanism() string {
	info, _ := optionInfo(o.Key)
	if what, ok := info.Swaps[o.Value]; ok {
		return what
	}
	return info.Short
}

func optionInfo(key string) (OptionInfo, bool) {
	for _, o := range optionCatalogue {
		if o.Key == key {
			return o, true
		}
	}
	return OptionInfo{}, false
}

func optionKeys() []string {
	var keys []string
	for _, o := range optionCatalogue {
		keys = append(keys, o.Key)
	}
	return keys
}

// OptionTaker is implemented by environments that take options: the keys
// they apply.
type OptionTaker interface {
	OptionKeys() []string
}

// checkVariant refuses an option the environment does not apply.
func checkVariant(base string, e Environment, v Variant) error {
	if len(v) == 0 {
		return nil
	}
	var takes []string
	if t, ok := e.(OptionTaker); ok {
		takes = t.OptionKeys()
	}
	for _, k := range slices.Sorted(maps.Keys(v)) {
		if slices.Contains(takes, k) {
			continue
		}
		if len(takes) == 0 {
			return fmt.Errorf("environment %s takes no options (%s=%s): it has no container mechanisms to switch", base, k, v[k])
		}
		return fmt.Errorf("environment %s has no %s option; it takes %s", base, k, strings.Join(takes, ", "))
	}
	return nil
}

// NetworkOwner is implemented by environments with a network of their
// choosing: DefaultNetwork is the mode they have without a network option.
type NetworkOwner interface {
	DefaultNetwork() string
}

// withoutImplied is v without the options that restate what e does
// without them (docker-bridge+network=bridge, +seccomp=default): such a
// name is the same environment as its base, so it gets the same canonical
// name, and a study listing both is refused instead of comparing an
// environment with itself (issue 25, item 15).
func withoutImplied(e Environment, v Variant) Variant {
	out := Variant{}
	for k, val := range v {
		if info, _ := optionInfo(k); info.implied != "" && val == info.implied {
			continue
		}
		if n, ok := e.(NetworkOwner); ok && k == "network" && val == n.DefaultNetwork() {
			continue
		}
		out[k] = val
	}
	return out
}

func oneOf(values ...string) func(string) (string, error) {
	return func(s string) (string, error) {
		if slices.Contains(values, s) {
			return s, nil
		}
		return "", fmt.Errorf("%q is not one of %s", s, strings.Join(values, ", "))
	}
}

func checkCPUs(s string) (string, error) {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || !(f > 0 && f <= 4096) { // NaN too
		return "", fmt.Errorf("%q is not a positive number of CPUs (e.g. 1.5)", s)
	}
	return strconv.FormatFloat(f, 'f', -1, 64), nil
}

// CPUsNano is a cpus value in units of 10^-9 CPUs, as Docker's NanoCpus.
func CPUsNano(s string) int64 {
	f, _ := strconv.ParseFloat(s, 64)
	return int64(f*1e9 + 0.5)
}

// CPUsNanoOf is the variant's cpus option in 10^-9 CPUs; 0 without one.
func CPUsNanoOf(v Variant) int64 {
	if s := v["cpus"]; s != "" {
		return CPUsNano(s)
	}
	return 0
}

// CPUSetFor is the CPU list a run of an environment with options v gets:
// the cpuset option's, else the study's placement (spec.CPUSet); both at
// once, naming different CPUs, is an error saying to drop one. Every
// environment that takes the option asks this, so they refuse alike.
func (v Variant) CPUSetFor(spec Spec) (string, error) {
	want := v["cpuset"]
	if want == "" {
		return spec.CPUSet, nil
	}
	if spec.CPUSet != "" && spec.CPUSet != want {
		return "", fmt.Errorf("cpuset=%s: the study's placement already gives this run CPUs %s; drop one of the two", want, spec.CPUSet)
	}
	return want, nil
}

// checkCPUSet reads a CPU list and writes it as the kernel does (0,1 and
// 0-1 are one cpuset, so one environment).
func checkCPUSet(s string) (string, error) {
	set, err := cpuset.Parse(s)
	if err != nil || strings.TrimSpace(s) != s {
		return "", fmt.Errorf("%q is not a CPU list (e.g. 0, 0-1 or 0,2)", s)
	}
	return set.String(), nil
}

// checkMemory accepts a size with an optional b, k, m or g suffix (powers
// of 1024, as docker run --memory) and keeps it as written, in lower case.
func checkMemory(s string) (string, error) {
	if _, err := MemoryBytes(s); err != nil {
		return "", err
	}
	return strings.ToLower(s), nil
}

// MemoryBytes is the size a memory option says, read as every size in
// boxtax is (workload.ParseBytes: 512m, 2g, 1GiB...).
func MemoryBytes(s string) (int64, error) {
	n, err := workload.ParseBytes(s)
	if err != nil || n <= 0 {
		return 0, fmt.Errorf("%q is not a size (e.g. 512m or 2g)", s)
	}
	if n < 6<<20 {
		return 0, fmt.Errorf("%q is below the 6 MiB an engine accepts as a memory limit", s)
	}
	return n, nil
}

func checkWord(s string) (string, error) {
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return "", fmt.Errorf("%q is not a runtime name (letters, digits, - _ .)", s)
		}
	}
	return s, nil
}

// AppArmorEnabled tells whether the kernel has AppArmor on: only then does
// a container have a profile to switch off.
func AppArmorEnabled() bool {
	b, err := os.ReadFile("/sys/module/apparmor/parameters/enabled")
	return err == nil && strings.TrimSpace(string(b)) == "Y"
}
