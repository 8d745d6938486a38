package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// lxcLeftovers lists what the boxtax process pid made for LXC and did not
// remove: container directories, the bridge, veth pairs, iptables rules and
// cgroups, all of which carry its pid in their names.
func lxcLeftovers(t *testing.T, pid int) []string {
	t.Helper()
	var out []string
	entries, _ := os.ReadDir("/var/lib/boxtax/lxc/containers")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), fmt.Sprintf("boxtax-%d-", pid)) {
			out = append(out, "container "+e.Name())
		}
	}
	out = append(out, commandLines("link ", func(l string) bool {
		return strings.Contains(l, fmt.Sprintf(": bxl%dv", pid)) || strings.Contains(l, fmt.Sprintf(": bxlxc%d:", pid)) || strings.Contains(l, fmt.Sprintf(": bxlxc%d@", pid))
	}, "ip", "-o", "link")...)
	for _, table := range []string{"nat", "filter"} {
		out = append(out, commandLines(table+" rule ", func(l string) bool {
			return strings.Contains(l, fmt.Sprintf("boxtax-lxc:%d\"", pid)) || strings.Contains(l, fmt.Sprintf("boxtax-lxc:%d:", pid)) ||
				strings.HasSuffix(l, fmt.Sprintf("boxtax-lxc:%d", pid)) || strings.Contains(l, fmt.Sprintf("boxtax-lxc:%d ", pid))
		}, "iptables", "-w", "-t", table, "-S")...)
	}
	_ = filepath.WalkDir("/sys/fs/cgroup", func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if strings.Count(strings.TrimPrefix(p, "/sys/fs/cgroup"), "/") > 5 {
			return filepath.SkipDir
		}
		if strings.HasPrefix(d.Name(), fmt.Sprintf("lxc.payload.boxtax-%d-", pid)) || strings.HasPrefix(d.Name(), fmt.Sprintf("lxc.monitor.boxtax-%d-", pid)) {
			out = append(out, "cgroup "+p)
			return filepath.SkipDir
		}
		return nil
	})
	return out
}

// TestLXCNetworkWorkloads runs net.tcp and net.rr (TCP and UDP) with the
// server in an LXC container and the client on the host and across a
// wire: every run must succeed, reach the server through the bridge's
// DNAT, and leave nothing behind.
func TestLXCNetworkWorkloads(t *testing.T) {
	requireEnvironment(t, "lxc", "LXC")
	testenv.RequireNetns(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "l.db")
	runOK(t, dir, "run", testdata(t, "lxc-net.yaml"), "--db", dbPath, "--settle", "0", "--monitor-interval", "0", "--quiet")
	if n := okRuns(t, dbPath); n != 6 {
		t.Errorf("%d ok runs, want 6", n)
	}
	rep := runIn(t, dir, "report", "--db", dbPath, "--format", "csv")
	stdoutSays(t, rep, "mbit_per_s", "rtt_mean_us")
	if left := lxcLeftovers(t, os.Getpid()); len(left) > 0 {
		t.Errorf("left behind:\n%s", strings.Join(left, "\n"))
	}
}

// TestInterruptRemovesLXC sends SIGINT to a real boxtax process while an
// LXC server container runs with its port rules and its client sits in a
// wire's namespace: the container, its veth, cgroups and rules, the
// bridge and the wire must all go, and the study resumes.
func TestInterruptRemovesLXC(t *testing.T) {
	requireEnvironment(t, "lxc", "LXC")
	testenv.RequireNetns(t)
	interruptRemovesEnv(t, testdata(t, "lxc-slow.yaml"), "an LXC container and a wire", "LXC", lxcLeftovers, func(pid int) bool {
		left := strings.Join(lxcLeftovers(t, pid), "\n")
		return strings.Contains(left, "container ") && strings.Contains(left, "nat rule") && len(leftovers(t, pid)) > 0
	}, 3)
}

// TestLXCProblemsNameTheFix: without LXC's tools, or without root, lxc is
// refused in list envs and before a study starts, with the command that
// fixes it and the environments that can run.
func TestLXCProblemsNameTheFix(t *testing.T) {
	t.Run("not installed", func(t *testing.T) {
		dir := t.TempDir()
		t.Setenv("PATH", t.TempDir()) // no lxc-execute
		res := runIn(t, dir, "list", "envs")
		if !strings.Contains(res.stdout, "lxc") || !strings.Contains(res.stdout, "no: LXC is not installed (no lxc-execute): apt-get install lxc") {
			t.Errorf("list envs does not say LXC is missing and how to install it:\n%s", res.stdout)
		}
		refusedBeforeStudy(t, dir, "native,lxc", "environment lxc is not available: LXC is not installed", "apt-get install lxc", "--envs native")
	})
	t.Run("not root", func(t *testing.T) {
		requireEnvironment(t, "lxc", "LXC")
		out, err := asUser(t, nobodyUID, sharedDir(t), "list", "envs")
		if err != nil {
			t.Fatalf("list envs: %v\n%s", err, out)
		}
		if !strings.Contains(out, "need root") || !strings.Contains(out, "sudo boxtax") {
			t.Errorf("list envs does not say LXC needs root:\n%s", out)
		}
	})
}
