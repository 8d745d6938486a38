package docker

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
)

// hostFSType is the filesystem type of a directory as statfs(2) gives it,
// in hex as the fake worker prints it.
func hostFSType(dir string) (string, error) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return "", err
	}
	return strconv.FormatInt(int64(st.Type), 16), nil
}

// Each option, as the container sees it from inside: what the option says
// is what the worker gets, on the real engine.
func TestDockerOptionsAsTheContainerSeesThem(t *testing.T) {
	c, opts, labels := setupLabelledDocker(t)
	ctx := context.Background()
	run := func(t *testing.T, name string, args ...string) (string, env.Settings) {
		t.Helper()
		e := envtest.New(t, Environments(), name, opts)
		var out bytes.Buffer
		settings, err := env.Run(ctx, e, env.Spec{Args: args, Labels: labels}, &out, os.Stderr)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		return out.String(), settings
	}
	seccompMode := func(out string) string {
		for _, l := range strings.Split(out, "\n") {
			if v, ok := strings.CutPrefix(l, "/proc/self/status: Seccomp:"); ok {
				return strings.TrimSpace(v)
			}
		}
		return "?"
	}

	t.Run("seccomp", func(t *testing.T) {
		out, _ := run(t, "docker-bridge", "cat", "/proc/self/status")
		if m := seccompMode(out); m != "2" {
			t.Errorf("docker-bridge: Seccomp mode %s, want 2 (filter)", m)
		}
		out, settings := run(t, "docker-bridge+seccomp=unconfined", "cat", "/proc/self/status")
		if m := seccompMode(out); m != "0" {
			t.Errorf("docker-bridge+seccomp=unconfined: Seccomp mode %s, want 0 (none)", m)
		}
		if settings["seccomp"] != "unconfined" || settings["options"] != "seccomp=unconfined" || settings["env"] != "docker-bridge+seccomp=unconfined" {
			t.Errorf("settings do not record the option: %v", settings)
		}
	})
	t.Run("network", func(t *testing.T) {
		out, settings := run(t, "docker-bridge+network=none", "cat", "/proc/net/dev")
		if !strings.Contains(out, " lo:") || strings.Contains(out, "eth0") {
			t.Errorf("network=none: interfaces\n%s\nwant only lo", out)
		}
		if settings["network_mode"] != "none" {
			t.Errorf("network_mode = %q, want none", settings["network_mode"])
		}
		e := envtest.New(t, Environments(), "docker-bridge+network=none", opts)
		_, err := env.Run(ctx, e, env.Spec{Args: []string{"exit", "0"}, Labels: labels, Ports: []env.Port{{Port: 5201, Proto: "tcp"}}}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "use network=none for workloads without a network") {
			t.Errorf("a server with network=none: %v, want it refused", err)
		}
		if _, settings := run(t, "docker-bridge+network=host", "exit", "0"); settings["network_mode"] != "host" {
			t.Errorf("network=host: network_mode %q", settings["network_mode"])
		}
	})
	t.Run("storage", func(t *testing.T) {
		own, _ := run(t, "docker-bridge", "fstype", "/tmp")
		tmpfs, s := run(t, "docker-bridge+storage=tmpfs", "fstype", "/tmp")
		if strings.TrimSpace(tmpfs) != "1021994" || s["scratch_storage"] != "tmpfs" {
			t.Errorf("storage=tmpfs: /tmp is fs 0x%s (settings %v), want tmpfs 0x1021994", strings.TrimSpace(tmpfs), s)
		}
		host, err := hostFSType(os.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		bind, s := run(t, "docker-bridge+storage=bind", "fstype", "/tmp")
		if strings.TrimSpace(bind) != host || !strings.HasPrefix(s["scratch_source"], filepath.Join(os.TempDir(), storageDirPrefix)) {
			t.Errorf("storage=bind: /tmp is fs 0x%s from %q, want the host's temporary directory's 0x%s", strings.TrimSpace(bind), s["scratch_source"], host)
		}
		if _, err := os.Stat(s["scratch_source"]); !os.IsNotExist(err) {
			t.Errorf("storage=bind: the host directory %s is left after the run (%v)", s["scratch_source"], err)
		}
		vol, s := run(t, "docker-bridge+storage=volume", "fstype", "/tmp")
		if s["scratch_storage"] != "volume" || strings.TrimSpace(vol) == "1021994" {
			t.Errorf("storage=volume: /tmp is fs 0x%s, settings %v", strings.TrimSpace(vol), s)
		}
		t.Logf("/tmp filesystems: own 0x%s, bind 0x%s, volume 0x%s, tmpfs 0x%s", strings.TrimSpace(own), strings.TrimSpace(bind), strings.TrimSpace(vol), strings.TrimSpace(tmpfs))
	})
	t.Run("cgroup limits", func(t *testing.T) {
		v1 := []string{"/sys/fs/cgroup/cpu/cpu.cfs_quota_us", "/sys/fs/cgroup/memory/memory.limit_in_bytes", "/sys/fs/cgroup/cpuset/cpuset.cpus"}
		v2 := []string{"/sys/fs/cgroup/cpu.max", "/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/cpuset.cpus.effective"}
		out, s := run(t, "docker-bridge+cpus=0.5+cpuset=0+memory=64m", append(append([]string{"cat"}, v1...), v2...)...)
		ok := func(file, want string) bool { return strings.Contains(out, file+": "+want+"\n") }
		if !(ok(v1[0], "50000") && ok(v1[1], "67108864") && ok(v1[2], "0") || ok(v2[0], "50000 100000") && ok(v2[1], "67108864") && ok(v2[2], "0")) {
			t.Errorf("the container's cgroup does not hold the limits:\n%s", out)
		}
		if s["nano_cpus"] != "500000000" || s["memory_bytes"] != "67108864" || s["cpuset"] != "0" {
			t.Errorf("settings: %v", s)
		}
		e := envtest.New(t, Environments(), "docker-bridge+cpuset=1", opts)
		if _, err := env.Run(ctx, e, env.Spec{Args: []string{"exit", "0"}, Labels: labels, CPUSet: "0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "drop one of the two") {
			t.Errorf("cpuset option against the study's placement: %v, want refused", err)
		}
	})
	t.Run("runtime", func(t *testing.T) {
		if _, s := run(t, "docker-bridge+runtime=runc", "exit", "0"); s["runtime"] != "runc" {
			t.Errorf("runtime=runc: settings %v", s)
		}
		e := envtest.New(t, Environments(), "docker-bridge+runtime=no-such-runtime", opts)
		_, err := env.Run(ctx, e, env.Spec{Args: []string{"exit", "0"}, Labels: labels}, io.Discard, io.Discard)
		if err == nil || !strings.Contains(err.Error(), "the engine knows the runtimes") || !strings.Contains(err.Error(), "daemon.json") {
			t.Errorf("an unknown runtime: %v, want the known ones and how to add one", err)
		}
		// Refused before the study too, where the daemon does not list
		// it: gVisor's runsc, which boxtax never registers.
		info, err := c.Info(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if _, listed := info.Runtimes["runsc"]; !listed {
			e := envtest.New(t, Environments(), "docker-bridge+runtime=runsc", opts)
			if err := e.Available(ctx); err == nil || !strings.Contains(err.Error(), "\"runtimes\"") || !strings.Contains(err.Error(), "daemon.json") {
				t.Errorf("runtime=runsc on a daemon without it: Available = %v, want how to register it", err)
			}
		}
	})
}
