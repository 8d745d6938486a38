package sched

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// Policy is a Linux scheduling policy.
type Policy int

// The policies a task may ask for.
const (
	Other Policy = unix.SCHED_NORMAL // the default time-sharing policy (CFS/EEVDF)
	FIFO  Policy = unix.SCHED_FIFO   // real-time, first in first out within a priority
	RR    Policy = unix.SCHED_RR     // real-time, round robin within a priority
)

// Policies names the policies ParsePolicy accepts.
var Policies = []string{"fifo", "rr", "other"}

// ParsePolicy reads fifo, rr or other.
func ParsePolicy(s string) (Policy, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "fifo", "sched_fifo":
		return FIFO, nil
	case "rr", "sched_rr":
		return RR, nil
	case "other", "normal", "sched_other":
		return Other, nil
	}
	return 0, fmt.Errorf("unknown scheduling policy %q; valid policies: %s", s, strings.Join(Policies, ", "))
}

// RealTime reports whether p is a real-time policy.
func (p Policy) RealTime() bool { return p == FIFO || p == RR }

func (p Policy) String() string {
	switch p {
	case FIFO:
		return "fifo"
	case RR:
		return "rr"
	case Other:
		return "other"
	}
	return "policy " + strconv.Itoa(int(p))
}

// CheckPriority rejects a priority the policy cannot have: 1..99 for the
// real-time policies, 0 for other.
func CheckPriority(p Policy, prio int) error {
	if p.RealTime() && (prio < 1 || prio > 99) {
		return fmt.Errorf("priority %d is out of range for %s: use 1 to 99", prio, p)
	}
	return nil
}

// SetThread gives the calling OS thread policy p at priority prio (ignored
// for other). The caller must hold its thread (runtime.LockOSThread). When
// the kernel says no, the error says what is missing and how to get it.
func SetThread(p Policy, prio int) error {
	if !p.RealTime() {
		prio = 0
	}
	attr := unix.SchedAttr{Size: unix.SizeofSchedAttr, Policy: uint32(p), Priority: uint32(prio)}
	err := unix.SchedSetAttr(0, &attr, 0)
	if err == nil {
		return nil
	}
	if errors.Is(err, unix.EPERM) {
		return &PermissionError{Policy: p, Priority: prio, Why: explainSchedDenied(prio)}
	}
	return fmt.Errorf("setting %s priority %d: %w", p, prio, err)
}

// ThreadPolicy reads the calling thread's policy and priority back.
func ThreadPolicy() (Policy, int, error) {
	attr, err := unix.SchedGetAttr(0, 0)
	if err != nil {
		return 0, 0, err
	}
	return Policy(attr.Policy), int(attr.Priority), nil
}

// PermissionError says that the kernel refused a real-time policy, and why.
type PermissionError struct {
	Policy   Policy
	Priority int
	Why      string
}

func (e *PermissionError) Error() string {
	return fmt.Sprintf("cannot run at SCHED_%s priority %d: operation not permitted: %s; "+
		"or set policy: other to measure without real-time scheduling", strings.ToUpper(e.Policy.String()), e.Priority, e.Why)
}

// Unwrap lets errors.Is(err, unix.EPERM) hold.
func (e *PermissionError) Unwrap() error { return unix.EPERM }

// explainSchedDenied says which of the three gates closed: the capability,
// the rtprio limit, or the cgroup's real-time budget.
func explainSchedDenied(prio int) string {
	var rl unix.Rlimit
	_ = unix.Getrlimit(unix.RLIMIT_RTPRIO, &rl)
	if !HasCapability(capSysNice) && rl.Cur < uint64(prio) {
		return fmt.Sprintf("the process lacks CAP_SYS_NICE and its real-time priority limit is %d (ulimit -r): "+
			"run as root, or raise the limit (ulimit -r 99, or rtprio in /etc/security/limits.conf); "+
			"in a container it needs --cap-add SYS_NICE", rl.Cur)
	}
	if path, budget, ok := rtBudget(); ok && budget == 0 {
		return fmt.Sprintf("the process may use real-time priorities, but its cgroup %s gives real-time tasks no CPU time "+
			"(cpu.rt_runtime_us = 0; the kernel has CONFIG_RT_GROUP_SCHED): in Docker the container needs "+
			"--cpu-rt-runtime=950000 (boxtax asks for it) and the daemon a budget to give it: start dockerd with "+
			"--cpu-rt-runtime=950000 (daemon.json \"cpu-rt-runtime\": 950000), or once as root: "+
			"echo 950000 > /sys/fs/cgroup/cpu/docker/cpu.rt_runtime_us", path)
	}
	return "the kernel refused although the process has CAP_SYS_NICE or a sufficient rtprio limit (a security module?)"
}

// rtBudget finds the cgroup (v1 cpu controller) of this process and its
// cpu.rt_runtime_us. In a container the controller is mounted at the
// container's own group, so the mount root is tried too.
func rtBudget() (path string, budgetUs int64, ok bool) {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return "", 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.SplitN(line, ":", 3)
		if len(f) != 3 || !strings.Contains(","+f[1]+",", ",cpu,") {
			continue
		}
		path = f[2]
		for _, mount := range []string{"/sys/fs/cgroup/cpu", "/sys/fs/cgroup/cpu,cpuacct"} {
			for _, p := range []string{mount + path, mount} {
				s, err := os.ReadFile(p + "/cpu.rt_runtime_us")
				if err != nil {
					continue
				}
				n, err := strconv.ParseInt(strings.TrimSpace(string(s)), 10, 64)
				if err == nil {
					return path, n, true
				}
			}
		}
	}
	return path, 0, false
}

// Linux capability numbers (linux/capability.h).
const (
	capIPCLock = 14
	capSysNice = 23
)

// HasCapability reports whether the process has capability cap in its
// effective set (read from /proc/self/status).
func HasCapability(cap uint) bool {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "CapEff:"); ok {
			mask, err := strconv.ParseUint(strings.TrimSpace(v), 16, 64)
			return err == nil && mask&(1<<cap) != 0
		}
	}
	return false
}
