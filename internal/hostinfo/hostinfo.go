// Package hostinfo collects the facts about a machine that are recorded with
// every study: CPU, memory, kernel and its preemption model, CPU governor and
// the container engine. A fact that cannot be read is left empty, never guessed.
package hostinfo

import (
	"bufio"
	"bytes"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/sys/unix"
)

// Host holds the facts about one machine.
type Host struct {
	Hostname       string `json:"hostname"`
	OS             string `json:"os"`
	Arch           string `json:"arch"`
	CPUModel       string `json:"cpu_model"`
	CPUs           int    `json:"cpus"`
	MemTotalBytes  int64  `json:"mem_total_bytes"`
	KernelRelease  string `json:"kernel_release"`
	KernelVersion  string `json:"kernel_version"`
	Preemption     string `json:"preemption"` // PREEMPT_RT, PREEMPT_DYNAMIC, PREEMPT, voluntary, none or ""
	RealtimeKernel bool   `json:"realtime_kernel"`
	Governor       string `json:"cpu_governor,omitempty"`
	Virtualized    string `json:"virtualized,omitempty"` // hypervisor vendor when /proc/cpuinfo says so
	// Engines are the container engines' facts, by the key each engine
	// records them under ("docker" for docker-bridge and docker-host; env
	// says which, env.FactsKey). In JSON each is a member of the host
	// object, where the fields per engine were (engine.go).
	Engines     map[string]Engine `json:"-"`
	Boxtax      string            `json:"boxtax_version"`
	CollectedAt time.Time         `json:"collected_at"`

	DeviceFacts // which device of a fleet this is (device.go)
}

// Collect reads the facts of this machine.
func Collect(version string) Host {
	h := Host{OS: runtime.GOOS, Arch: runtime.GOARCH, CPUs: runtime.NumCPU(), Boxtax: version, CollectedAt: time.Now().UTC()}
	h.Hostname, _ = os.Hostname()
	h.MachineID = machineID()
	var u unix.Utsname
	if unix.Uname(&u) == nil {
		h.KernelRelease = unix.ByteSliceToString(u.Release[:])
		h.KernelVersion = unix.ByteSliceToString(u.Version[:])
	}
	h.Preemption = preemption(h.KernelRelease, h.KernelVersion)
	h.RealtimeKernel = h.Preemption == "PREEMPT_RT"
	h.CPUModel, h.Virtualized = cpuModel()
	h.MemTotalBytes = MemInfoBytes("MemTotal")
	h.Governor = readTrim("/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor")
	return h
}

// preemption tells the kernel's preemption model from /sys/kernel/realtime,
// the dynamic-preemption debugfs file and the version string (uname -v).
func preemption(release, kernelVersion string) string {
	if readTrim("/sys/kernel/realtime") == "1" || strings.Contains(kernelVersion, "PREEMPT_RT") {
		return "PREEMPT_RT"
	}
	// With PREEMPT_DYNAMIC the active model is the one in parentheses.
	if s := readTrim("/sys/kernel/debug/sched/preempt"); s != "" {
		if i, j := strings.Index(s, "("), strings.Index(s, ")"); i >= 0 && j > i {
			return "PREEMPT_DYNAMIC (" + s[i+1:j] + ")"
		}
	}
	switch {
	case strings.Contains(kernelVersion, "PREEMPT_DYNAMIC"):
		if m := dynamicModel(release); m != "" {
			return "PREEMPT_DYNAMIC (" + m + ")"
		}
		return "PREEMPT_DYNAMIC"
	case strings.Contains(kernelVersion, "PREEMPT"):
		return "PREEMPT"
	}
	return ""
}

func cpuModel() (model, hypervisor string) {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "", ""
	}
	sc := bufio.NewScanner(bytes.NewReader(b))
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		switch k {
		case "model name", "Model", "Hardware", "cpu model":
			if model == "" {
				model = v
			}
		case "flags":
			if strings.Contains(" "+v+" ", " hypervisor ") {
				hypervisor = "yes"
			}
		}
	}
	return model, hypervisor
}

// MemInfoBytes is the field of /proc/meminfo named field ("MemTotal",
// "MemAvailable") in bytes; 0 when it cannot be read.
func MemInfoBytes(field string) int64 {
	b, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == field+":" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb * 1024
		}
	}
	return 0
}

func readTrim(path string) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(b))
}
