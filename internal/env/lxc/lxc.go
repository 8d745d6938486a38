// Package lxc runs the worker in an LXC container (lxc-execute) on a
// bridge with NAT that boxtax makes for the study.
package lxc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/netip"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/cpuset"
	"github.com/boxtax/boxtax/internal/crash"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/netcmd"
)

// Environments are LXC's environment by name.
func Environments() map[string]env.Factory {
	return map[string]env.Factory{"lxc": func(o env.Options) env.Environment { return &lxcEnv{opts: o} }}
}

// lxcEnv runs the worker in an LXC container (Debian's lxc package, its
// lxc-execute): a root filesystem directory holding the same static binary
// as the Docker image, on a veth pair into a bridge with NAT, as LXC's
// lxc-net sets containers up. See docs/environments.md, "LXC".
type lxcEnv struct {
	opts env.Options

	mu       sync.Mutex
	binKey   string   // the binary's hash prefix, set by Prepare
	rootfs   string   // the plain root filesystem directory
	used     []string // root filesystem keys this process recorded as used
	version  string   // lxc-execute --version
	cgroupV2 bool
}

// lxcSeq numbers the containers of this process.
var lxcSeq atomic.Int64

// lxcSeccomp is LXC's own default seccomp policy, as LXC's common.conf
// applies it to every distribution template's container.
const lxcSeccomp = "/usr/share/lxc/config/common.seccomp"

func (l *lxcEnv) Name() string { return "lxc" + l.opts.Variant.String() }

// OptionKeys implements env.OptionTaker: the knobs of boxtax's LXC config.
// Its network is always its veth into the NAT bridge, and its scratch
// space always a host directory bind-mounted at /tmp.
func (l *lxcEnv) OptionKeys() []string { return []string{"seccomp", "cpus", "cpuset", "memory"} }
func (l *lxcEnv) Description() string {
	return "the worker in an LXC container (lxc-execute) on a root filesystem directory, veth into a bridge with NAT, as LXC's lxc-net does (the seed 004's LXC)"
}

// Available checks, within a second or so, what an LXC container of the
// worker needs: LXC's tools, root, the kernel's namespaces and cgroups, ip
// and iptables, and a static worker binary for this machine.
func (l *lxcEnv) Available(ctx context.Context) error {
	if _, err := exec.LookPath("lxc-execute"); err != nil {
		return errors.New("LXC is not installed (no lxc-execute): apt-get install lxc")
	}
	if _, err := os.Stat("/usr/sbin/init.lxc.static"); err != nil {
		if _, err2 := os.Stat("/sbin/init.lxc.static"); err2 != nil {
			return errors.New("LXC's init.lxc.static, which lxc-execute runs as the container's init, is missing: apt-get install --reinstall lxc")
		}
	}
	for _, tool := range []string{"ip", "iptables"} {
		if _, err := exec.LookPath(tool); err != nil {
			return fmt.Errorf("%s is not installed; the LXC bridge and NAT need it: apt-get install iproute2 iptables", tool)
		}
	}
	if os.Geteuid() != 0 {
		return errors.New("LXC containers on a bridge with NAT need root (boxtax makes the bridge, veth pairs and iptables rules; " +
			"rootless LXC needs subuid maps and lxc-user-nic, which boxtax does not set up): run boxtax as root, e.g. sudo boxtax")
	}
	for _, ns := range []string{"pid", "net", "uts", "ipc", "mnt"} {
		if _, err := os.Stat("/proc/self/ns/" + ns); err != nil {
			return fmt.Errorf("the kernel lacks %s namespaces (CONFIG_%s_NS), which LXC containers need: use a kernel with them (lxc-checkconfig lists what is missing)",
				ns, strings.ToUpper(ns))
		}
	}
	if _, err := os.Stat("/sys/fs/cgroup"); err != nil {
		return errors.New("no cgroup file system at /sys/fs/cgroup, which LXC needs: mount it (mount -t cgroup2 none /sys/fs/cgroup)")
	}
	arch, err := env.CheckStaticELF(l.opts.BinaryPath)
	if err != nil {
		return err
	}
	if arch != "" && arch != runtime.GOARCH {
		return fmt.Errorf("the boxtax binary at %s is built for %s but this machine runs %s: build it with GOARCH=%s CGO_ENABLED=0",
			l.opts.BinaryPath, arch, runtime.GOARCH, runtime.GOARCH)
	}
	if len(l.opts.Variant) > 0 {
		online, err := cpuset.Online()
		if err != nil {
			return fmt.Errorf("lxc: %w", err)
		}
		if err := env.CheckVariantHost(l.opts.Variant, online); err != nil {
			return fmt.Errorf("lxc: %w", err)
		}
	}
	return nil
}

// Prepare makes the root filesystem of the binary and the bridge.
func (l *lxcEnv) Prepare(ctx context.Context) error {
	if err := l.Available(ctx); err != nil {
		return err
	}
	key, err := binaryKey(l.opts.BinaryPath)
	if err != nil {
		return err
	}
	dir, key, err := ensureLXCRootfs(l.opts.BinaryPath, key, nil, nil)
	if err != nil {
		return err
	}
	if err := l.use(key); err != nil {
		return err
	}
	if err := lxcNet.ensure(ctx); err != nil {
		return err
	}
	version, _ := netcmd.Output(ctx, "lxc-execute", "--version")
	l.mu.Lock()
	l.binKey, l.rootfs, l.version, l.cgroupV2 = key, dir, strings.TrimSpace(version), cgroupV2()
	l.mu.Unlock()
	return nil
}

// use records that this process uses a root filesystem.
func (l *lxcEnv) use(key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if slices.Contains(l.used, key) {
		return nil
	}
	if err := useLXCRootfs(key); err != nil {
		return fmt.Errorf("recording the use of the LXC root filesystem %s: %w", key, err)
	}
	l.used = append(l.used, key)
	return nil
}

// Close removes the bridge and its rules, and the record that this process
// uses its root filesystems (which stay, for the next study, until boxtax clean).
func (l *lxcEnv) Close(ctx context.Context) error {
	l.mu.Lock()
	used := l.used
	l.used = nil
	l.mu.Unlock()
	releaseLXCRootfs(used)
	return lxcNet.remove(ctx)
}

// prepared returns the binary's key and root filesystem, preparing first
// if Prepare was not called.
func (l *lxcEnv) prepared(ctx context.Context) (binKey, rootfs string, err error) {
	l.mu.Lock()
	binKey, rootfs = l.binKey, l.rootfs
	l.mu.Unlock()
	if binKey == "" {
		if err := l.Prepare(ctx); err != nil {
			return "", "", err
		}
		return l.prepared(ctx)
	}
	if _, err := os.Stat(filepath.Join(rootfs, "boxtax")); err != nil {
		// `boxtax clean` in another terminal removed it: make it again.
		if rootfs, _, err = ensureLXCRootfs(l.opts.BinaryPath, binKey, nil, nil); err != nil {
			return "", "", err
		}
	}
	return binKey, rootfs, lxcNet.ensure(ctx)
}

// OwnNetwork implements Networked: the container has its own network stack
// behind the bridge.
func (l *lxcEnv) OwnNetwork() bool { return true }

// NoLoopbackPorts implements NoLoopbackPorts: published ports are DNAT
// rules, and the kernel does not route 127.0.0.1 to a bridge.
func (l *lxcEnv) NoLoopbackPorts() string {
	return "LXC has no userland proxy to serve its ports at 127.0.0.1 (the wire level proxy measures Docker's docker-proxy)"
}

// NATAddress implements Networked: the bridge's address, at which the DNAT
// rules of published ports catch a client on this host (nat OUTPUT), as
// Docker's gateway address does.
func (l *lxcEnv) NATAddress(ctx context.Context) (string, error) {
	if err := lxcNet.ensure(ctx); err != nil {
		return "", fmt.Errorf("lxc: %w", err)
	}
	lxcNet.mu.Lock()
	defer lxcNet.mu.Unlock()
	return lxcNet.gateway.String(), nil
}

// Start writes the container's config, publishes its ports and starts it
// with lxc-execute, whose stdout and stderr are the worker's (LXC's own
// errors come on stderr too) and whose exit status is the worker's.
func (l *lxcEnv) Start(ctx context.Context, spec env.Spec, stdout, stderr io.Writer) (env.Instance, error) {
	if spec.Netns != "" {
		return nil, fmt.Errorf("lxc: a container cannot run in network namespace %s; only native workers can", spec.Netns)
	}
	if err := checkLXCUlimits(spec.Ulimits); err != nil {
		return nil, fmt.Errorf("lxc: %w", err)
	}
	binKey, rootfs, err := l.prepared(ctx)
	if err != nil {
		return nil, fmt.Errorf("lxc: %w", err)
	}
	rootfsKey, worker, imageID := binKey, "/boxtax", ""
	if spec.Image != "" { // the image's files, as natively (image.go)
		if rootfs, imageID, err = l.imageRootfs(ctx, spec); err != nil {
			return nil, err
		}
		if err := env.MarkImageVolumesUsed(rootfs); err != nil { // the next run gets them fresh
			return nil, fmt.Errorf("lxc: %w", err)
		}
		rootfsKey, worker = env.ImageKey(imageID), env.NativeImageBinary
	} else if len(spec.HostPrograms) > 0 {
		if rootfs, rootfsKey, err = ensureLXCRootfs(l.opts.BinaryPath, binKey, env.HostProgramList(spec.HostPrograms), env.HostProgramList(spec.HostFiles)); err != nil {
			return nil, fmt.Errorf("lxc: %w", err)
		}
		if err := l.use(rootfsKey); err != nil {
			return nil, fmt.Errorf("lxc: %w", err)
		}
	}
	l.mu.Lock()
	v2, version := l.cgroupV2, l.version
	l.mu.Unlock()

	t0 := time.Now()
	n := int(lxcSeq.Add(1))
	pid := os.Getpid()
	inst := &lxcInstance{
		name: fmt.Sprintf("boxtax-%d-%d", pid, n), stdout: stdout, stderr: stderr, exited: make(chan struct{}),
	}
	inst.dir = filepath.Join(lxcContainersDir(), inst.name)
	inst.comment = lxcRuleComment + strconv.Itoa(pid) + ":" + inst.name
	fail := func(err error) (env.Instance, error) {
		stopCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), env.StopTimeout)
		defer cancel()
		return nil, errors.Join(fmt.Errorf("lxc: %w", err), inst.cleanup(stopCtx, true))
	}
	if inst.ip, err = lxcNet.addr(); err != nil {
		return fail(err)
	}
	lxcNet.mu.Lock()
	bridge, gateway := lxcNet.bridge, lxcNet.gateway
	lxcNet.mu.Unlock()
	inst.veth = lxcVethName(pid, n)
	labels := maps.Clone(spec.Labels)
	if labels == nil {
		labels = map[string]string{}
	}
	labels[env.LabelManaged] = "true"
	labels[env.LabelVersion] = l.opts.Version
	seccomp := ""
	if _, err := os.Stat(lxcSeccomp); err == nil && l.opts.Variant["seccomp"] != "unconfined" {
		seccomp = lxcSeccomp
	}
	cpuset, err := l.opts.Variant.CPUSetFor(spec)
	if err != nil {
		return fail(err)
	}
	var memLimit int64
	if m := l.opts.Variant["memory"]; m != "" {
		if memLimit, err = env.MemoryBytes(m); err != nil {
			return fail(err)
		}
	}
	rtRuntime, rtNote := lxcRealtimeBudget(spec.CPURealtimeRuntimeUs, v2)
	cfg := lxcConfig{
		Name: inst.name, Rootfs: rootfs, Tmp: filepath.Join(inst.dir, "tmp"), Labels: labels, Writable: imageID != "",
		CgroupV2: v2, CPUSet: cpuset, RealtimeRuntimeUs: rtRuntime,
		CPUQuotaNano: env.CPUsNanoOf(l.opts.Variant), MemoryBytes: memLimit,
		CapKeep: spec.CapAdd, Ulimits: spec.Ulimits, Seccomp: seccomp,
		Bridge: bridge, VethHost: inst.veth, Addr: netip.PrefixFrom(inst.ip, 24).String(), Gateway: gateway.String(),
	}
	text, err := cfg.render()
	if err != nil {
		return fail(err)
	}
	if err := os.MkdirAll(cfg.Tmp, 0o755); err != nil {
		return fail(fmt.Errorf("making the container's directory: %w (run boxtax as root)", err))
	}
	if err := os.Chmod(cfg.Tmp, 0o1777); err != nil {
		return fail(err)
	}
	if err := os.WriteFile(filepath.Join(inst.dir, "config"), []byte(text), 0o644); err != nil {
		return fail(fmt.Errorf("writing the container's config: %w", err))
	}
	inst.published = len(spec.Ports) > 0
	if err := publishLXC(ctx, inst.comment, inst.ip, spec.Ports); err != nil {
		return fail(err)
	}
	createDur := time.Since(t0)

	cmd := exec.Command("lxc-execute", append([]string{"-P", lxcContainersDir(), "-n", inst.name, "--", worker}, spec.Args...)...)
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// A process group of its own, so Ctrl-C reaches only the controller,
	// which stops the container itself, in order; and killed with the
	// controller (LXC kills the container's init when lxc-execute dies).
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = env.OutputGrace
	t1 := time.Now()
	if err := cmd.Start(); err != nil {
		return fail(fmt.Errorf("starting lxc-execute: %w", err))
	}
	startDur := time.Since(t1)
	inst.cmd = cmd
	crash.Go(func() {
		inst.waitErr = cmd.Wait()
		close(inst.exited)
	})
	if cpuset == "" {
		cpuset = "all"
	}
	caps := "none"
	if len(spec.CapAdd) > 0 {
		caps = strings.Join(spec.CapAdd, ",")
	}
	inst.settings = env.Settings{
		"env":            l.Name(),
		"container_name": inst.name,
		"lxcpath":        lxcContainersDir(),
		"lxc_version":    version,
		"rootfs":         rootfs,
		"rootfs_hash":    rootfsKey,
		"storage_driver": "dir",
		"network_mode":   "veth+bridge " + bridge,
		"ip":             inst.ip.String(),
		"veth":           inst.veth,
		"cpuset":         cpuset,
		"cap_keep":       caps,
		"cgroup":         map[bool]string{true: "v2", false: "v1"}[v2],
		"create_ms":      env.MsString(createDur),
		"start_ms":       env.MsString(startDur),
	}
	if len(spec.Ports) > 0 {
		inst.settings["ports"] = env.PortList(spec.Ports)
	}
	if imageID != "" {
		inst.settings["image"], inst.settings["image_id"] = spec.Image, imageID
	}
	if len(spec.HostPrograms) > 0 {
		inst.settings["host_programs"] = strings.Join(env.HostProgramList(spec.HostPrograms), ",")
	}
	if seccomp != "" {
		inst.settings["seccomp"] = seccomp
	} else {
		inst.settings["seccomp"] = "unconfined"
	}
	if len(l.opts.Variant) > 0 {
		inst.settings["options"] = strings.TrimPrefix(l.opts.Variant.String(), "+")
	}
	if cfg.CPUQuotaNano > 0 {
		inst.settings["nano_cpus"] = strconv.FormatInt(cfg.CPUQuotaNano, 10)
	}
	if memLimit > 0 {
		inst.settings["memory_bytes"] = strconv.FormatInt(memLimit, 10)
	}
	if spec.CPURealtimeRuntimeUs > 0 {
		inst.settings["cpu_rt_runtime_us"] = rtNote
	}
	return inst, nil
}

// lxcRealtimeBudget is the real-time budget to give the container's cgroup
// (lxc.cgroup.cpu.rt_runtime_us) and how the run's record says it. Only
// kernels with real-time group scheduling (CONFIG_RT_GROUP_SCHED: the cpu
// controller of cgroup v1 has cpu.rt_runtime_us) need one, and a new cgroup
// there has none; elsewhere real-time threads need no budget and LXC
// would refuse the key.
func lxcRealtimeBudget(us int64, v2 bool) (int64, string) {
	switch {
	case us <= 0:
		return 0, ""
	case v2:
		return 0, "not set: cgroup v2 has no real-time group scheduling"
	}
	if _, err := os.Stat("/sys/fs/cgroup/cpu/cpu.rt_runtime_us"); err != nil {
		return 0, "not set: the kernel has no real-time group scheduling (CONFIG_RT_GROUP_SCHED), so none is needed"
	}
	return us, strconv.FormatInt(us, 10)
}
