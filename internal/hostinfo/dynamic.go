package hostinfo

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"strings"
)

// dynamicModel names the preemption model a PREEMPT_DYNAMIC kernel runs
// when /sys/kernel/debug/sched/preempt cannot be read (debugfs not
// mounted): the preempt= boot parameter, else the build's default. It
// returns "" when neither is known.
func dynamicModel(release string) string {
	if m := cmdlinePreempt(readTrim("/proc/cmdline")); m != "" {
		return m + ", preempt= at boot"
	}
	if m := configDefault(kernelConfig(release)); m != "" {
		return m + ", the build's default"
	}
	return ""
}

// cmdlinePreempt finds preempt=MODEL on a kernel command line.
func cmdlinePreempt(cmdline string) string {
	for _, f := range strings.Fields(cmdline) {
		if v, ok := strings.CutPrefix(f, "preempt="); ok && v != "" {
			return v
		}
	}
	return ""
}

// configDefault reads the default preemption model from a kernel config.
func configDefault(config string) string {
	models := map[string]string{"CONFIG_PREEMPT_NONE=y": "none", "CONFIG_PREEMPT_VOLUNTARY=y": "voluntary",
		"CONFIG_PREEMPT=y": "full", "CONFIG_PREEMPT_LAZY=y": "lazy"}
	sc := bufio.NewScanner(strings.NewReader(config))
	for sc.Scan() {
		if m, ok := models[strings.TrimSpace(sc.Text())]; ok {
			return m
		}
	}
	return ""
}

// kernelConfig returns the running kernel's build configuration from
// /proc/config.gz or /boot/config-RELEASE, or "".
func kernelConfig(release string) string {
	if b, err := os.ReadFile("/proc/config.gz"); err == nil {
		if zr, err := gzip.NewReader(bytes.NewReader(b)); err == nil {
			if out, err := io.ReadAll(zr); err == nil {
				return string(out)
			}
		}
	}
	b, _ := os.ReadFile("/boot/config-" + release)
	return string(b)
}
