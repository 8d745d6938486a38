package docker

import (
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

// scratchMount is where a storage option mounts the worker's scratch space:
// the worker makes its scratch directory under $TMPDIR, /tmp in the image.
const scratchMount = "/tmp"

// storageDirPrefix names the host directories of storage=bind, under the
// host's temporary directory, where a native worker's scratch files go too.
const storageDirPrefix = "boxtax-storage-"

// OptionKeys implements env.OptionTaker for Docker.
func (d *Env) OptionKeys() []string {
	return []string{"network", "seccomp", "apparmor", "storage", "cpus", "cpuset", "memory", "runtime"}
}

// applyVariant sets the host config for the environment's options and
// returns what to undo after the container is removed (a bind directory).
func (d *Env) applyVariant(ctx context.Context, hc *docker.HostConfig, spec env.Spec) (undo func() error, err error) {
	v := d.opts.Variant
	undo = func() error { return nil }
	for _, k := range slices.Sorted(maps.Keys(v)) {
		val := v[k]
		switch k {
		case "network":
			if val == "none" && len(spec.Ports) > 0 {
				return undo, fmt.Errorf("network=none gives the container only a loopback, but this workload serves on %s: "+
					"use network=none for workloads without a network", env.PortList(spec.Ports))
			}
			// d.networkMode is set from the option when the environment is made.
		case "seccomp":
			if val == "unconfined" {
				hc.SecurityOpt = append(hc.SecurityOpt, "seccomp=unconfined")
			}
		case "apparmor":
			if !env.AppArmorEnabled() {
				return undo, fmt.Errorf("apparmor=%s: this kernel has AppArmor off, so containers have no profile to switch", val)
			}
			if val == "unconfined" {
				hc.SecurityOpt = append(hc.SecurityOpt, "apparmor=unconfined")
			}
		case "storage":
			switch val {
			case "bind":
				dir, err := os.MkdirTemp("", storageDirPrefix+strconv.Itoa(os.Getpid())+"-")
				if err != nil {
					return undo, fmt.Errorf("storage=bind: making the host directory: %w", err)
				}
				if err := os.Chmod(dir, 0o1777); err != nil { // a rootless engine's root is another user here
					os.RemoveAll(dir)
					return undo, err
				}
				undo = func() error { return os.RemoveAll(dir) }
				hc.Mounts = append(hc.Mounts, docker.Mount{Type: "bind", Source: dir, Target: scratchMount})
			case "volume": // anonymous: removed with the container
				hc.Mounts = append(hc.Mounts, docker.Mount{Type: "volume", Target: scratchMount})
			case "tmpfs":
				hc.Mounts = append(hc.Mounts, docker.Mount{Type: "tmpfs", Target: scratchMount})
			}
		case "cpus":
			hc.NanoCPUs = env.CPUsNano(val)
		case "cpuset":
			if hc.CpusetCpus, err = v.CPUSetFor(spec); err != nil {
				return undo, err
			}
		case "memory":
			n, err := env.MemoryBytes(val)
			if err != nil {
				return undo, err
			}
			hc.MemoryBytes = n
		case "runtime":
			if d.runtimeByService { // Podman: the service's runtime
				continue
			}
			if err := d.checkRuntime(ctx, val); err != nil {
				return undo, err
			}
			hc.Runtime = val
		case "userns":
			if val == "auto" {
				if err := CheckSubIDs("containers"); err != nil {
					return undo, err
				}
				// In a user namespace a container cannot raise a limit
				// above the engine's hard limit, and Podman's defaults for
				// open files and processes are above it: ask for them.
				for _, name := range []string{"nofile", "nproc"} {
					if n, ok := d.limitCaps[name]; ok && !slices.ContainsFunc(hc.Ulimits, func(u docker.Ulimit) bool { return u.Name == name }) {
						hc.Ulimits = append(hc.Ulimits, docker.Ulimit{Name: name, Soft: n, Hard: n})
					}
				}
			}
			hc.UsernsMode = val
		}
	}
	return undo, nil
}

// CheckSubIDs refuses a per-container user namespace when /etc/subuid or
// /etc/subgid has no range for the user Podman takes them from.
func CheckSubIDs(user string) error {
	for _, f := range []string{"/etc/subuid", "/etc/subgid"} {
		b, _ := os.ReadFile(f)
		if !strings.Contains("\n"+string(b), "\n"+user+":") {
			return fmt.Errorf("userns=auto: %s has no range for the user %q, from which Podman takes each container's IDs: "+
				"add a line such as %s:2147483647:2147483648 to /etc/subuid and /etc/subgid", f, user, user)
		}
	}
	return nil
}

// checkRuntime refuses a runtime the engine does not know, naming the ones
// it does and how Docker learns another.
func (d *Env) checkRuntime(ctx context.Context, name string) error {
	info, err := d.client.Info(ctx)
	if err != nil {
		return fmt.Errorf("runtime=%s: asking the engine for its runtimes: %w", name, err)
	}
	return runtimeListed(info, name)
}

// runtimeListed refuses a runtime the engine's /info does not list.
func runtimeListed(info docker.Info, name string) error {
	if _, ok := info.Runtimes[name]; ok {
		return nil
	}
	known := slices.Sorted(maps.Keys(info.Runtimes))
	return fmt.Errorf("runtime=%s: the engine knows the runtimes %s; to add %s to Docker, name it under \"runtimes\" in /etc/docker/daemon.json "+
		"(e.g. {\"runtimes\": {\"crun\": {\"path\": \"/usr/bin/crun\"}}}) and reload the daemon (kill -HUP $(pidof dockerd))",
		name, strings.Join(known, ", "), name)
}

// variantSettings records what the options actually gave the container, as
// the engine reports it back.
func variantSettings(s env.Settings, v env.Variant, hc docker.HostConfig) {
	if len(v) == 0 {
		return
	}
	s["options"] = strings.TrimPrefix(v.String(), "+")
	for _, opt := range hc.SecurityOpt {
		if k, val, ok := strings.Cut(opt, "="); ok && (k == "seccomp" || k == "apparmor") {
			s[k] = val
		}
	}
	if hc.NanoCPUs > 0 {
		s["nano_cpus"] = strconv.FormatInt(hc.NanoCPUs, 10)
	}
	if hc.MemoryBytes > 0 {
		s["memory_bytes"] = strconv.FormatInt(hc.MemoryBytes, 10)
	}
	if hc.Runtime != "" {
		s["runtime"] = hc.Runtime
	}
	if hc.UsernsMode != "" {
		s["userns"] = hc.UsernsMode
	}
	for _, m := range hc.Mounts {
		if m.Target == scratchMount {
			s["scratch_storage"] = m.Type
			if m.Source != "" {
				s["scratch_source"] = m.Source
			}
		}
	}
}

// RemoveStorageLeftovers removes the storage=bind directories of boxtax
// processes that no longer run (a controller killed before its containers
// were removed), and returns their paths.
func RemoveStorageLeftovers() ([]string, error) { return env.RemoveDeadDirs(storageDirPrefix) }
