package lxc

import (
	"fmt"
	"maps"
	"net/netip"
	"slices"
	"strconv"
	"strings"
)

// lxcConfig is what one LXC container of a worker is made of; render turns
// it into the container's config file, in LXC's own keys (lxc.container.conf(5)),
// so that a user of LXC reads it as any other container's config.
type lxcConfig struct {
	Name   string            // the container's name: boxtax-<controller pid>-<n>
	Rootfs string            // the shared root filesystem directory (binary and empty mount points)
	Tmp    string            // the container's own scratch directory, bind-mounted at /tmp
	Labels map[string]string // the spec's labels, kept as comments
	// Writable: an image's unpacked files, which its program may write
	// to as it does natively (Docker gives it a writable layer).
	Writable bool

	CgroupV2 bool   // write lxc.cgroup2.* keys instead of lxc.cgroup.* (cgroup v1)
	CPUSet   string // lxc.cgroup.cpuset.cpus; empty: every CPU
	// RealtimeRuntimeUs is the cgroup's real-time budget (cgroup v1 cpu.rt_runtime_us); 0: none set.
	RealtimeRuntimeUs int64
	// CPUQuotaNano is a CPU quota in 10^-9 CPUs (the cpus option); 0: none.
	CPUQuotaNano int64
	// MemoryBytes is a memory limit (the memory option); 0: none.
	MemoryBytes int64
	CapKeep     []string         // capabilities kept (upper case, no CAP_ prefix); none when empty
	Ulimits     map[string]int64 // lxc.prlimit.<name>; -1 is unlimited
	Seccomp     string           // lxc.seccomp.profile; "" for none

	// The network: a veth pair whose host end (VethHost) joins Bridge; the
	// container's end is eth0 with Addr (CIDR) and Gateway. An empty Bridge
	// gives the container only a loopback (lxc.net.0.type = empty).
	Bridge, VethHost, Addr, Gateway string
}

// lxcDevices are the device nodes a container may use, as in LXC's
// common.conf: the ones autodev makes (null, zero, full, random, urandom,
// tty) plus console and pseudo-terminals; everything else is denied.
var lxcDevices = []string{"c 1:3 rwm", "c 1:5 rwm", "c 1:7 rwm", "c 1:8 rwm", "c 1:9 rwm", "c 5:0 rwm", "c 5:1 rwm", "c 5:2 rwm", "c 136:* rwm"}

// lxcLabelPrefix starts the comment lines that carry a container's labels.
const lxcLabelPrefix = "# label "

// render writes the config file. Values are checked by the caller; render
// refuses a newline in any of them, which would smuggle in another key.
func (c lxcConfig) render() (string, error) {
	var b strings.Builder
	line := func(key, value string) { fmt.Fprintf(&b, "%s = %s\n", key, value) }
	fmt.Fprintf(&b, "# An LXC container of a boxtax worker, made by the boxtax controller (pid in the name);\n")
	fmt.Fprintf(&b, "# run with lxc-execute, removed when the worker ends or by `boxtax clean`.\n")
	for _, k := range slices.Sorted(maps.Keys(c.Labels)) {
		fmt.Fprintf(&b, "%s%s=%s\n", lxcLabelPrefix, k, c.Labels[k])
	}
	line("lxc.uts.name", c.Name)
	line("lxc.rootfs.path", "dir:"+c.Rootfs)
	// Read-only: every container of the binary shares the directory;
	// each writes only to its own /tmp.
	if !c.Writable {
		line("lxc.rootfs.options", "ro")
	}
	line("lxc.mount.auto", "proc:mixed sys:ro cgroup:mixed")
	line("lxc.mount.entry", c.Tmp+" tmp none bind,create=dir 0 0")
	line("lxc.autodev", "1")
	line("lxc.pty.max", "0")
	line("lxc.tty.max", "0")
	cg := "lxc.cgroup."
	if c.CgroupV2 {
		cg = "lxc.cgroup2."
	}
	line(cg+"devices.deny", "a")
	for _, d := range lxcDevices {
		line(cg+"devices.allow", d)
	}
	if c.CPUSet != "" {
		line(cg+"cpuset.cpus", c.CPUSet)
	}
	if c.CPUQuotaNano > 0 {
		// The quota per 100 ms period, as docker run --cpus sets it.
		const periodUs = 100000
		quota := c.CPUQuotaNano * periodUs / 1e9
		if c.CgroupV2 {
			line(cg+"cpu.max", fmt.Sprintf("%d %d", quota, periodUs))
		} else {
			line(cg+"cpu.cfs_period_us", strconv.Itoa(periodUs))
			line(cg+"cpu.cfs_quota_us", strconv.FormatInt(quota, 10))
		}
	}
	if c.MemoryBytes > 0 {
		if c.CgroupV2 {
			line(cg+"memory.max", strconv.FormatInt(c.MemoryBytes, 10))
		} else {
			line(cg+"memory.limit_in_bytes", strconv.FormatInt(c.MemoryBytes, 10))
		}
	}
	if c.RealtimeRuntimeUs > 0 {
		if c.CgroupV2 {
			return "", fmt.Errorf("a real-time CPU budget (cpu.rt_runtime_us) needs cgroup v1: cgroup v2 has no real-time group scheduling")
		}
		line(cg+"cpu.rt_runtime_us", strconv.FormatInt(c.RealtimeRuntimeUs, 10))
	}
	if len(c.CapKeep) == 0 {
		line("lxc.cap.keep", "none")
	} else {
		var caps []string
		for _, cp := range c.CapKeep {
			caps = append(caps, strings.ToLower(strings.TrimPrefix(strings.ToUpper(cp), "CAP_")))
		}
		slices.Sort(caps)
		line("lxc.cap.keep", strings.Join(slices.Compact(caps), " "))
	}
	for _, name := range slices.Sorted(maps.Keys(c.Ulimits)) {
		v := "unlimited"
		if n := c.Ulimits[name]; n >= 0 {
			v = strconv.FormatInt(n, 10)
		}
		line("lxc.prlimit."+name, v)
	}
	if c.Seccomp != "" {
		line("lxc.seccomp.profile", c.Seccomp)
	}
	if c.Bridge == "" {
		line("lxc.net.0.type", "empty")
	} else {
		line("lxc.net.0.type", "veth")
		line("lxc.net.0.link", c.Bridge)
		line("lxc.net.0.veth.pair", c.VethHost)
		line("lxc.net.0.name", "eth0")
		line("lxc.net.0.flags", "up")
		if a, err := netip.ParsePrefix(c.Addr); err == nil && a.Addr().Is4() {
			// A MAC address made from the IPv4 address, as Docker makes
			// its containers': a later container that gets the address
			// gets the MAC too, so the host's neighbour entry stays right.
			b := a.Addr().As4()
			line("lxc.net.0.hwaddr", fmt.Sprintf("02:42:%02x:%02x:%02x:%02x", b[0], b[1], b[2], b[3]))
		}
		line("lxc.net.0.ipv4.address", c.Addr)
		line("lxc.net.0.ipv4.gateway", c.Gateway)
	}
	out := b.String()
	for _, v := range append([]string{c.Name, c.Rootfs, c.Tmp, c.CPUSet, c.Seccomp, c.Bridge, c.VethHost, c.Addr, c.Gateway},
		slices.Collect(maps.Values(c.Labels))...) {
		if strings.ContainsAny(v, "\n\r") {
			return "", fmt.Errorf("the LXC config value %q holds a line break", v)
		}
	}
	return out, nil
}

// lxcUlimitNames are the limits lxc.prlimit knows, named as docker run
// --ulimit names them (setrlimit(2) without RLIMIT_).
var lxcUlimitNames = []string{"as", "core", "cpu", "data", "fsize", "locks", "memlock", "msgqueue", "nice", "nofile", "nproc", "rss", "rtprio", "rttime", "sigpending", "stack"}

// checkLXCUlimits refuses a limit lxc.prlimit does not know.
func checkLXCUlimits(limits map[string]int64) error {
	for name := range limits {
		if !slices.Contains(lxcUlimitNames, name) {
			return fmt.Errorf("unknown ulimit %q; LXC's lxc.prlimit knows %s", name, strings.Join(lxcUlimitNames, ", "))
		}
	}
	return nil
}
