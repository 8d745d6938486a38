package wire

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// Check says whether wires can be made here, shaped or not, by trying: it
// looks for ip (and tc when shaped), then makes a wire and removes it. The
// error says what is missing.
func Check(ctx context.Context, shaped bool) error {
	tools := []string{"ip"}
	if shaped {
		tools = append(tools, "tc")
	}
	for _, t := range tools {
		if _, err := exec.LookPath(t); err != nil {
			return fmt.Errorf("%s is not installed: the netns wire needs iproute2's ip and tc (apt-get install iproute2)", t)
		}
	}
	if missing := missingCaps(); missing != "" {
		return fmt.Errorf("no permission to make a network namespace and links: this process lacks %s (run boxtax as root)", missing)
	}
	rate := 0.0
	if shaped {
		rate = 100e6
	}
	w, err := Create(ctx, rate)
	if err != nil {
		return err
	}
	return w.Remove(context.WithoutCancel(ctx))
}

// missingCaps names the capabilities a wire needs that this process's
// effective set lacks, or "" (also when they cannot be read).
func missingCaps() string {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return ""
	}
	for _, line := range strings.Split(string(b), "\n") {
		hex, ok := strings.CutPrefix(line, "CapEff:")
		if !ok {
			continue
		}
		eff, err := strconv.ParseUint(strings.TrimSpace(hex), 16, 64)
		if err != nil {
			return ""
		}
		var missing []string
		for _, c := range []struct {
			bit  uint
			name string
		}{{21, "CAP_SYS_ADMIN"}, {12, "CAP_NET_ADMIN"}} {
			if eff&(1<<c.bit) == 0 {
				missing = append(missing, c.name)
			}
		}
		return strings.Join(missing, " and ")
	}
	return ""
}

// RemoveStale removes the wires of boxtax processes that no longer run:
// namespaces named boxtax-<pid>-<n> whose process is gone, with their links.
// It returns the names of the namespaces it removed.
func RemoveStale(ctx context.Context) ([]string, error) {
	entries, err := os.ReadDir("/run/netns")
	if err != nil {
		return nil, nil // no namespaces at all
	}
	var removed []string
	var errs []string
	for _, e := range entries {
		name := e.Name()
		rest, ok := strings.CutPrefix(name, NamePrefix)
		if !ok {
			continue
		}
		pidStr, nStr, ok := strings.Cut(rest, "-")
		pid, err1 := strconv.Atoi(pidStr)
		n, err2 := strconv.Atoi(nStr)
		if !ok || err1 != nil || err2 != nil || alive(pid) {
			continue
		}
		w := &Wire{Namespace: name}
		w.HostLink, w.ClientLink = linkNames(pid, n)
		if err := w.Remove(ctx); err != nil {
			errs = append(errs, err.Error())
			continue
		}
		removed = append(removed, name)
	}
	if len(errs) > 0 {
		return removed, fmt.Errorf("%s", strings.Join(errs, "; "))
	}
	return removed, nil
}

// alive tells whether a process with this id runs.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || err == syscall.EPERM
}
