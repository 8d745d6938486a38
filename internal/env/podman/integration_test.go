package podman

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	dockerenv "github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

// requirePodman skips where Podman cannot run here; in CI (CI=true) it
// fails instead. It returns the named Podman environment, closed at the
// end of the test with a check that boxtax's own service is gone.
func requirePodman(t *testing.T, name string) *podmanEnv {
	t.Helper()
	testenv.SkipShort(t, "Podman")
	testenv.RequireTool(t, "podman", "podman")
	if name == "podman-rootless" {
		if _, err := rootlessUser(os.Getenv); err != nil {
			testenv.Missing(t, "no user for rootless Podman here (CI sets BOXTAX_PODMAN_USER, .ci/run): %v", err)
		}
	}
	bin := envtest.BuildFakeWorker(t, t.TempDir())
	e := envtest.New(t, Environments(), name, env.Options{BinaryPath: bin, Version: "test"})
	p := e.(*podmanEnv)
	if err := p.Available(context.Background()); err != nil {
		t.Fatalf("%s is not available although podman is installed: %v", name, err)
	}
	svc := p.svc
	t.Cleanup(func() {
		if err := p.Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
		podmanShared.Lock()
		shared := svc.refs > 0 // another environment of the test still uses it
		podmanShared.Unlock()
		if svc.cmd != nil && !shared {
			if err := syscall0(svc.cmd.Process.Pid); err == nil {
				t.Errorf("boxtax's podman system service (pid %d) still runs after Close", svc.cmd.Process.Pid)
			}
			if _, err := os.Stat(svc.dir); !os.IsNotExist(err) {
				t.Errorf("the service's directory %s is left: %v", svc.dir, err)
			}
		}
	})
	return p
}

// syscall0 is nil while the process pid exists (and is not a zombie).
func syscall0(pid int) error {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return err
	}
	if f := strings.Fields(string(b)); len(f) > 2 && f[2] == "Z" {
		return fmt.Errorf("zombie")
	}
	return nil
}

func TestPodmanIntegration(t *testing.T) {
	e := requirePodman(t, "podman-bridge")
	envtest.Prepare(t, e)
	ctx := context.Background()
	t.Run("output arrives whole and in order", func(t *testing.T) {
		settings := envtest.CheckWholeOutput(t, e, nil)
		envtest.CheckSettings(t, settings, map[string]string{"env": "podman-bridge", "engine": "podman", "network_mode": "bridge", "cpuset": "all"})
		if settings["container_id"] == "" || settings["podman_service"] == "" || settings["storage_driver"] == "" {
			t.Errorf("settings lack the container, the service or the storage driver: %v", settings)
		}
		if _, err := e.svc.client.ContainerInspect(ctx, settings["container_id"]); !docker.IsNotFound(err) {
			t.Errorf("the container is still there after Run: %v", err)
		}
	})
	t.Run("non-zero exit", func(t *testing.T) {
		envtest.CheckNonZeroExit(t, e, nil)
	})
	t.Run("exactly the capabilities asked for", func(t *testing.T) {
		capEff := envtest.CapEffWithSysNice(t, e)
		// Podman's default set (no NET_RAW, no MKNOD, no AUDIT_WRITE ...
		// unlike Docker's) plus SYS_NICE, and nothing like SYS_ADMIN.
		const capSysNice, capSysAdmin = 23, 21
		if capEff&(1<<capSysNice) == 0 || capEff&(1<<capSysAdmin) != 0 {
			t.Errorf("CapEff %x: want CAP_SYS_NICE and no CAP_SYS_ADMIN", capEff)
		}
	})
	t.Run("limits within the service's hard limits", func(t *testing.T) {
		var out bytes.Buffer
		if _, err := env.Run(ctx, e, env.Spec{Args: []string{"limits"}, Ulimits: map[string]int64{"nofile": 1000}}, &out, os.Stderr); err != nil {
			t.Fatalf("a container with limits from the spec: %v", err)
		}
		if want := fmt.Sprintf("nofile 1000 nproc %d\n", e.svc.limits["nproc"]); out.String() != want {
			t.Errorf("limits %q, want %q", out.String(), want)
		}
		out.Reset()
		// unlimited (-1) and Podman's own default (1048576 open files)
		// are above this machine's hard limits: capped, not refused.
		if _, err := env.Run(ctx, e, env.Spec{Args: []string{"limits"}, Ulimits: map[string]int64{"nproc": -1}}, &out, os.Stderr); err != nil {
			t.Fatalf("a container with an unlimited nproc: %v", err)
		}
		if want := fmt.Sprintf("nofile %d nproc %d\n", e.svc.limits["nofile"], e.svc.limits["nproc"]); out.String() != want {
			t.Errorf("limits %q, want %q", out.String(), want)
		}
	})
	t.Run("waiting for a container costs the service no CPU", func(t *testing.T) {
		if e.svc.cmd == nil {
			t.Skip("the user's Podman service runs here; its CPU time is not boxtax's to read")
		}
		pid := e.svc.cmd.Process.Pid
		// The service's CPU time over 2 s in the middle of a container's
		// 4 s sleep: creating, starting and removing it cost what they
		// cost (a lot, and varying, on a loaded machine) outside that
		// window; Podman 4.3's wait, polling without pause, would take a
		// whole CPU inside it.
		inst, err := e.Start(ctx, env.Spec{Args: []string{"sleep", "4s"}}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer inst.Stop(context.Background()) // removes the container, which Wait leaves
		time.Sleep(time.Second)
		before := processCPU(t, pid)
		time.Sleep(2 * time.Second)
		during := processCPU(t, pid) - before
		if err := inst.Wait(); err != nil {
			t.Fatal(err)
		}
		t.Logf("the Podman service used %v of CPU in 2 s of a container's sleep", during)
		if during > 500*time.Millisecond {
			t.Errorf("the Podman service used %v of CPU in 2 s while its container slept: something polls it", during)
		}
	})
	t.Run("cancel stops promptly and removes the container", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		time.AfterFunc(1500*time.Millisecond, cancel)
		start := time.Now()
		settings, err := env.Run(cctx, e, env.Spec{Args: []string{"sleep", "60s"}}, io.Discard, io.Discard)
		if err == nil || time.Since(start) > 20*time.Second {
			t.Fatalf("Run = %v after %v, want cancelled promptly", err, time.Since(start))
		}
		if id := settings["container_id"]; id != "" {
			if _, err := e.svc.client.ContainerInspect(ctx, id); !docker.IsNotFound(err) {
				t.Errorf("the cancelled container is still there: %v", err)
			}
		}
	})
}

// processCPU is the user and system CPU time a process has used.
func processCPU(t *testing.T, pid int) time.Duration {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "stat"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	f := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * 10 * time.Millisecond // USER_HZ 100
}

// TestPodmanHostSharesTheNetwork: podman-host runs on the host's network,
// podman-bridge has its own, reached at 127.0.0.1 through netavark's NAT.
func TestPodmanHostSharesTheNetwork(t *testing.T) {
	e := requirePodman(t, "podman-host")
	ctx := context.Background()
	var out bytes.Buffer
	settings, err := env.Run(ctx, e, env.Spec{Args: []string{"lines", "1"}}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if settings["network_mode"] != "host" || e.OwnNetwork() {
		t.Errorf("network_mode %q, OwnNetwork %v; want host, false", settings["network_mode"], e.OwnNetwork())
	}
	b := requirePodman(t, "podman-bridge")
	if addr, err := b.NATAddress(ctx); err != nil || addr != "127.0.0.1" || !b.OwnNetwork() {
		t.Errorf("podman-bridge: NATAddress %q, %v, OwnNetwork %v", addr, err, b.OwnNetwork())
	}
}

// TestPodmanRootless runs the worker in rootless Podman: the service runs
// as the ordinary user, the run says so, and nothing is left.
func TestPodmanRootless(t *testing.T) {
	e := requirePodman(t, "podman-rootless")
	envtest.Prepare(t, e)
	ctx := context.Background()
	var out bytes.Buffer
	settings, err := env.Run(ctx, e, env.Spec{Args: []string{"lines", "3"}}, &out, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	if out.String() != "line 1\nline 2\nline 3\n" {
		t.Errorf("stdout %q", out.String())
	}
	if settings["rootless"] != "true" || settings["env"] != "podman-rootless" || settings["network_mode"] != "bridge" {
		t.Errorf("settings %v: want rootless, podman-rootless, bridge", settings)
	}
	if uid := processUID(e.svc.pid); uid == 0 || uid < 0 {
		t.Errorf("the rootless service runs as uid %d", uid)
	}
	if e.svc.info.CgroupVersion == "1" {
		// Podman would ignore the cpuset with a warning and run unpinned.
		_, err := env.Run(ctx, e, env.Spec{Args: []string{"lines", "1"}, CPUSet: "0"}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "cgroup v1") {
			t.Errorf("a cpuset in rootless Podman on cgroup v1: %v, want a refusal naming cgroup v1", err)
		}
	}
}

// Podman's options as the container sees them: a user namespace of its
// own (userns=auto) maps the container's root to unprivileged host IDs,
// and seccomp=unconfined drops the filter.
func TestPodmanOptions(t *testing.T) {
	if err := dockerenv.CheckSubIDs("containers"); err != nil {
		testenv.Missing(t, "no subordinate id ranges for the user containers (CI adds them, .ci/run): %v", err)
	}
	e := requirePodman(t, "podman-bridge+seccomp=unconfined+userns=auto")
	var out bytes.Buffer
	settings, err := env.Run(context.Background(), e, env.Spec{Args: []string{"cat", "/proc/self/uid_map", "/proc/self/status"}}, &out, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var uidMap []string
	seccomp := "?"
	for _, l := range strings.Split(out.String(), "\n") {
		if v, ok := strings.CutPrefix(l, "/proc/self/uid_map: "); ok {
			uidMap = strings.Fields(v)
		}
		if v, ok := strings.CutPrefix(l, "/proc/self/status: Seccomp:"); ok {
			seccomp = strings.TrimSpace(v)
		}
	}
	if len(uidMap) != 3 || uidMap[0] != "0" || uidMap[1] == "0" {
		t.Errorf("userns=auto: uid_map %q, want the container's root mapped to a host ID other than 0", uidMap)
	}
	if seccomp != "0" {
		t.Errorf("seccomp=unconfined: Seccomp mode %s, want 0", seccomp)
	}
	if settings["userns"] == "" || settings["userns"] == "host" || settings["env"] != "podman-bridge+seccomp=unconfined+userns=auto" {
		t.Errorf("settings do not record the options: %v", settings)
	}
}
