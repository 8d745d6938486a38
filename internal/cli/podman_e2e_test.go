package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/testenv"
)

// podmanLeftovers lists what the boxtax process pid left of Podman: its
// own podman system service (a child of the process, with a socket under
// boxtax-podman-*) and containers labelled with its controller id.
func podmanLeftovers(t *testing.T, pid int) []string {
	t.Helper()
	var out []string
	for _, c := range childProcesses(pid) {
		if c.state != "Z" && strings.Contains(c.cmdline, "boxtax-podman-") {
			out = append(out, "process "+strings.ReplaceAll(c.cmdline, "\x00", " "))
		}
	}
	host, _ := os.Hostname()
	ps, err := exec.Command("podman", "ps", "-a", "--format", "{{.ID}} {{.Names}}", "--filter", fmt.Sprintf("label=%s=%s/%d", ControllerLabel, host, pid)).CombinedOutput()
	if err != nil {
		t.Errorf("podman ps: %v\n%s", err, ps)
	}
	for _, l := range strings.Split(strings.TrimSpace(string(ps)), "\n") {
		if l != "" {
			out = append(out, "container "+l)
		}
	}
	return out
}

// TestPodmanStudy runs a CPU workload and net.rr (TCP and UDP, on the host
// and across a wire) in podman-bridge and podman-host: every run must
// succeed, the report must name Podman's engine, and nothing may be left.
func TestPodmanStudy(t *testing.T) {
	requireEnvironment(t, "podman-bridge", "Podman")
	testenv.RequireNetns(t)
	dir := t.TempDir()
	dbPath := filepath.Join(dir, "p.db")
	cmd, stderr := startRun(t, dir, nil, testdata(t, "podman-net.yaml"), "--db", dbPath, "--settle", "0", "--monitor-interval", "0", "--quiet")
	pid := cmd.Process.Pid // names what it made: podmanLeftovers
	if err := cmd.Wait(); err != nil {
		t.Fatalf("run: %v\n%s", err, stderr.String())
	}
	// The two Podman environments (podman-bridge the baseline): cpu.prime
	// once each, net.rr in 2 protocols x 2 wires each.
	if n := okRuns(t, dbPath); n != 10 {
		t.Errorf("%d ok runs, want 10\n%s", n, stderr.String())
	}
	rep := runIn(t, dir, "report", "--db", dbPath)
	for _, want := range []string{"podman-bridge", "podman-host", "Podman Engine", "rtt"} {
		if !strings.Contains(strings.ToLower(rep.stdout), strings.ToLower(want)) {
			t.Errorf("report lacks %q:\n%s", want, rep.stdout)
		}
	}
	if left := podmanLeftovers(t, pid); len(left) > 0 {
		t.Errorf("left behind:\n%s", strings.Join(left, "\n"))
	}
	if rules, _ := exec.Command("iptables", "-w", "-S", "FORWARD").CombinedOutput(); strings.Contains(string(rules), fmt.Sprintf("boxtax-podman:%d", pid)) {
		t.Errorf("the FORWARD rule for Podman's bridge was left:\n%s", rules)
	}
}

// TestInterruptRemovesPodman sends SIGINT to a real boxtax process while
// a Podman server container runs with its client across a wire: the
// container, boxtax's Podman service and the wire must all go, and the
// study resumes.
func TestInterruptRemovesPodman(t *testing.T) {
	requireEnvironment(t, "podman-bridge", "Podman")
	testenv.RequireNetns(t)
	interruptRemovesEnv(t, testdata(t, "podman-slow.yaml"), "a Podman container and a wire", "Podman", podmanLeftovers, func(pid int) bool {
		return strings.Contains(strings.Join(podmanLeftovers(t, pid), "\n"), "container ") && len(leftovers(t, pid)) > 0
	}, 3)
}

// TestPodmanNotInstalledNamesTheFix: without podman, podman-bridge is
// refused in list envs and before a study starts, with the command that
// installs it.
func TestPodmanNotInstalledNamesTheFix(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("PATH", t.TempDir())
	t.Setenv("CONTAINER_HOST", "unix://"+filepath.Join(dir, "none.sock"))
	res := runIn(t, dir, "list", "envs")
	if !regexp.MustCompile(`podman-bridge +no: podman-bridge: podman is not installed \(Debian/Ubuntu: apt-get install podman\)`).MatchString(res.stdout) {
		t.Errorf("list envs does not say Podman is missing and how to install it:\n%s", res.stdout)
	}
	refusedBeforeStudy(t, dir, "native,podman-host", "environment podman-host is not available", "apt-get install podman", "--envs native")
}
