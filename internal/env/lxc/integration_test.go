package lxc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/env/netcmd"
	"github.com/boxtax/boxtax/internal/testenv"
)

// requireLXC skips the test where LXC cannot run (not installed, not
// root); in CI (CI=true) it fails instead. It points boxtax's LXC
// directory at a temporary one, and at the end closes the environment and
// checks that nothing of the test's containers is left.
func requireLXC(t *testing.T) (env.Environment, env.Options) {
	t.Helper()
	testenv.SkipShort(t, "LXC")
	bin := envtest.BuildFakeWorker(t, t.TempDir())
	opts := env.Options{BinaryPath: bin, Version: "test"}
	e := envtest.New(t, Environments(), "lxc", opts)
	if err := e.Available(context.Background()); err != nil {
		testenv.Missing(t, "LXC cannot run here: %v", err)
	}
	saved := lxcRoot
	lxcRoot = t.TempDir()
	t.Cleanup(func() {
		if err := e.(env.Closer).Close(context.Background()); err != nil {
			t.Errorf("Close: %v", err)
		}
		assertNoLXCLeft(t)
		lxcRoot = saved
	})
	return e, opts
}

// assertNoLXCLeft checks that no container directory, veth, cgroup, rule
// or bridge of this process is left.
func assertNoLXCLeft(t *testing.T) {
	t.Helper()
	entries, _ := os.ReadDir(lxcContainersDir())
	for _, e := range entries {
		t.Errorf("container directory %s was left behind", e.Name())
	}
	pid := strconv.Itoa(os.Getpid())
	ifaces, _ := net.Interfaces()
	for _, ifc := range ifaces {
		if strings.HasPrefix(ifc.Name, "bxl"+pid+"v") || ifc.Name == lxcBridgePrefix+pid {
			t.Errorf("interface %s was left behind", ifc.Name)
		}
	}
	for _, table := range []string{"nat", "filter"} {
		rules, err := lxcRules(context.Background(), table)
		if err != nil {
			t.Error(err)
		}
		for _, r := range rules {
			if r.Comment == lxcRuleComment+pid || strings.HasPrefix(r.Comment, lxcRuleComment+pid+":") {
				t.Errorf("iptables rule %s was left behind", strings.Join(r.Spec, " "))
			}
		}
	}
	if cgs := findLXCCgroupsOf("boxtax-" + pid + "-"); len(cgs) > 0 {
		t.Errorf("cgroups left behind: %v", cgs)
	}
}

// findLXCCgroupsOf lists LXC cgroups whose container name starts with prefix.
func findLXCCgroupsOf(prefix string) []string {
	var out []string
	_ = filepath.WalkDir("/sys/fs/cgroup", func(p string, d os.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if strings.Count(strings.TrimPrefix(p, "/sys/fs/cgroup"), "/") > 5 {
			return filepath.SkipDir
		}
		for _, kind := range []string{"lxc.payload.", "lxc.monitor."} {
			if strings.HasPrefix(d.Name(), kind+prefix) {
				out = append(out, p)
				return filepath.SkipDir
			}
		}
		return nil
	})
	return out
}

func TestLXCIntegration(t *testing.T) {
	e, _ := requireLXC(t)
	envtest.Prepare(t, e)
	ctx := context.Background()
	t.Run("output arrives whole and in order", func(t *testing.T) {
		settings := envtest.CheckWholeOutput(t, e, nil)
		envtest.CheckSettings(t, settings, map[string]string{"env": "lxc", "cpuset": "all", "cap_keep": "none", "storage_driver": "dir"})
		if !strings.HasPrefix(settings["container_name"], "boxtax-"+strconv.Itoa(os.Getpid())+"-") || settings["rootfs_hash"] == "" ||
			net.ParseIP(settings["ip"]) == nil || settings["create_ms"] == "" || settings["start_ms"] == "" {
			t.Errorf("settings lack the container name, rootfs hash, address or timings: %v", settings)
		}
		if _, err := os.Stat(filepath.Join(lxcContainersDir(), settings["container_name"])); !errors.Is(err, os.ErrNotExist) {
			t.Errorf("the container's directory still exists after Run: %v", err)
		}
	})
	t.Run("non-zero exit", func(t *testing.T) {
		envtest.CheckNonZeroExit(t, e, nil)
	})
	t.Run("exactly the capabilities asked for, cpuset and limits", func(t *testing.T) {
		capEff := envtest.CapEffWithSysNice(t, e)
		const capSysNice = 23
		if capEff != 1<<capSysNice {
			t.Errorf("CapEff %x inside the container, want exactly CAP_SYS_NICE (%x)", capEff, uint64(1)<<capSysNice)
		}
		inst, err := e.Start(ctx, env.Spec{Args: []string{"sleep", "60s"}, CPUSet: "0", Ulimits: map[string]int64{"nofile": 1000}}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer inst.Stop(ctx)
		name := inst.Settings()["container_name"]
		var cpus string
		var limit string
		for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline) && (cpus == "" || limit == ""); time.Sleep(50 * time.Millisecond) {
			for _, cg := range findLXCCgroups(name) {
				if b, err := os.ReadFile(filepath.Join(cg, "cpuset.cpus")); err == nil && strings.HasPrefix(filepath.Base(cg), "lxc.payload.") {
					cpus = strings.TrimSpace(string(b))
				}
			}
			limit = workerLimit(name, "Max open files")
		}
		if cpus != "0" {
			t.Errorf("the container's cgroup has cpuset.cpus %q, want 0", cpus)
		}
		if f := strings.Fields(limit); len(f) < 5 || f[4] != "1000" {
			t.Errorf("the worker's open-files limit is %q, want a hard limit of 1000", limit)
		}
		if err := inst.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
		if err := inst.Stop(ctx); err != nil {
			t.Errorf("Stop again: %v", err)
		}
	})
	t.Run("scratch space in /tmp, the container's own", func(t *testing.T) {
		envtest.CheckScratchTmp(t, e, nil)
	})
	t.Run("a published port gets DNAT rules at the bridge address", func(t *testing.T) {
		testLXCPublish(t, e)
	})
	t.Run("cancel stops promptly", func(t *testing.T) {
		cctx, cancel := context.WithCancel(ctx)
		defer cancel()
		out := &envtest.FirstWrite{Started: make(chan struct{})}
		cancelledAt := make(chan time.Time, 1)
		go func() {
			select {
			case <-out.Started:
			case <-time.After(20 * time.Second):
			}
			cancelledAt <- time.Now()
			cancel()
		}()
		_, err := env.Run(cctx, e, env.Spec{Args: []string{"sleep", "60s"}}, out, os.Stderr)
		// Well before the 60 s sleep ends (a liveness bound, not a speed).
		if took := time.Since(<-cancelledAt); took > 30*time.Second {
			t.Errorf("Run returned %v after the cancel, want it well before the 60 s sleep ends", took)
		}
		if !errors.Is(err, context.Canceled) {
			t.Errorf("error = %v, want context.Canceled", err)
		}
	})
	t.Run("Stop ends a blocked Wait", func(t *testing.T) {
		envtest.CheckStopEndsWait(t, e, nil, 300*time.Millisecond) // also while LXC is still setting up
	})
	t.Run("a killed controller's container is removed by clean", func(t *testing.T) {
		testLXCStale(t)
	})
}

// workerLimit is the line of /proc/PID/limits of the process in the
// container's payload cgroup that is not LXC's init.
func workerLimit(name, limit string) string {
	for _, cg := range findLXCCgroups(name) {
		if !strings.HasPrefix(filepath.Base(cg), "lxc.payload.") {
			continue
		}
		b, _ := os.ReadFile(filepath.Join(cg, "cgroup.procs"))
		for _, pid := range strings.Fields(string(b)) {
			exe, _ := os.Readlink("/proc/" + pid + "/exe")
			if strings.Contains(exe, "init.lxc") {
				continue
			}
			lim, _ := os.ReadFile("/proc/" + pid + "/limits")
			for _, l := range strings.Split(string(lim), "\n") {
				if strings.HasPrefix(l, limit) {
					return l
				}
			}
		}
	}
	return ""
}

// testLXCPublish checks the DNAT rules of a published port (the fake
// worker serves nothing) and that Stop removes them; traffic through them
// is tested end to end by the CLI's LXC test with net.rr.
func testLXCPublish(t *testing.T, e env.Environment) {
	ctx := context.Background()
	gw, err := e.(env.Networked).NATAddress(ctx)
	if err != nil {
		t.Fatal(err)
	}
	port := freeTCPPort(t, gw)
	inst, err := e.Start(ctx, env.Spec{Args: []string{"sleep", "60s"}, Ports: []env.Port{{Proto: "tcp", Port: port, HostIP: gw}}}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	ip := inst.Settings()["ip"]
	rules, err := lxcRules(ctx, "nat")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"PREROUTING": false, "OUTPUT": false}
	for _, r := range rules {
		s := strings.Join(r.Spec, " ")
		if strings.Contains(s, "--to-destination "+ip+":"+strconv.Itoa(port)) && strings.Contains(s, "-d "+gw+"/32") {
			want[r.Spec[0]] = true
		}
	}
	for chain, found := range want {
		if !found {
			t.Errorf("no DNAT rule in %s from %s:%d to %s", chain, gw, port, ip)
		}
	}
	if err := inst.Stop(ctx); err != nil {
		t.Fatal(err)
	}
	rules, _ = lxcRules(ctx, "nat")
	for _, r := range rules {
		if r.Comment == lxcRuleComment+strconv.Itoa(os.Getpid())+":"+inst.Settings()["container_name"] {
			t.Errorf("rule left after Stop: %s", strings.Join(r.Spec, " "))
		}
	}
}

func freeTCPPort(t *testing.T, host string) int {
	ln, err := net.Listen("tcp4", net.JoinHostPort(host, "0"))
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port
}

// testLXCStale makes what a controller killed with SIGKILL leaves (a
// container directory named after a process that no longer runs, its port
// rule, its bridge) and checks that RemoveLXCLeftovers removes exactly that.
func testLXCStale(t *testing.T) {
	ctx := context.Background()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	pid := dead.Process.Pid // has exited: no process has this id now
	name := fmt.Sprintf("boxtax-%d-1", pid)
	if err := os.MkdirAll(filepath.Join(lxcContainersDir(), name, "tmp"), 0o755); err != nil {
		t.Fatal(err)
	}
	bridge := lxcBridgePrefix + strconv.Itoa(pid)
	comment := lxcRuleComment + strconv.Itoa(pid)
	for _, s := range [][]string{
		{"ip", "link", "add", "name", bridge, "type", "bridge"},
		{"iptables", "-w", "-t", "nat", "-A", "OUTPUT", "-d", "10.0.254.1", "-p", "tcp", "--dport", "9", "-m", "comment", "--comment", comment + ":" + name, "-j", "DNAT", "--to-destination", "10.0.254.2:9"},
	} {
		if err := netcmd.Run(ctx, s...); err != nil {
			t.Fatal(err)
		}
	}
	res, err := RemoveLXCLeftovers(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Containers) != 1 || res.Containers[0] != name || len(res.Bridges) != 1 || res.Bridges[0] != bridge {
		t.Errorf("removed %v and bridges %v, want [%s] and [%s]", res.Containers, res.Bridges, name, bridge)
	}
	if _, err := net.InterfaceByName(bridge); err == nil {
		t.Errorf("bridge %s still exists", bridge)
	}
	rules, _ := lxcRules(ctx, "nat")
	for _, r := range rules {
		if strings.HasPrefix(r.Comment, comment+":") {
			t.Errorf("rule of the dead controller left: %s", strings.Join(r.Spec, " "))
		}
	}
	// This process's network is alive and was left alone.
	if _, err := net.InterfaceByName(lxcBridgePrefix + strconv.Itoa(os.Getpid())); err != nil {
		t.Errorf("the running process's bridge was removed: %v", err)
	}
}
