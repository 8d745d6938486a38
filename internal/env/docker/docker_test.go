package docker

import (
	"archive/tar"
	"bytes"
	"context"
	"debug/elf"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

// dynamicBinary finds a dynamically linked executable on this system.
func dynamicBinary(t *testing.T) string {
	for _, p := range []string{"/bin/sh", "/bin/true", "/usr/bin/env", "/bin/ls"} {
		f, err := elf.Open(p)
		if err != nil {
			continue
		}
		dynamic := slices.ContainsFunc(f.Progs, func(p *elf.Prog) bool { return p.Type == elf.PT_INTERP })
		f.Close()
		if dynamic {
			return p
		}
	}
	t.Skip("no dynamically linked executable found on this system")
	return ""
}

func TestCheckStaticELF(t *testing.T) {
	dir := t.TempDir()
	script := testenv.WriteFileIn(t, dir, "script.sh", []byte("#!/bin/sh\necho hi\n"), 0o755)
	static := envtest.BuildFakeWorker(t, dir)
	t.Run("static", func(t *testing.T) {
		arch, err := env.CheckStaticELF(static)
		if err != nil {
			t.Fatal(err)
		}
		if arch != runtime.GOARCH {
			t.Errorf("arch = %q, want %q", arch, runtime.GOARCH)
		}
	})
	t.Run("dynamic", func(t *testing.T) {
		bin := dynamicBinary(t)
		_, err := env.CheckStaticELF(bin)
		want := "the boxtax binary at " + bin + " is dynamically linked and cannot run in a FROM scratch image: " +
			"build it with CGO_ENABLED=0 (make build)"
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error = %v\nwant it to contain %q", err, want)
		}
	})
	t.Run("not ELF", func(t *testing.T) {
		if _, err := env.CheckStaticELF(script); err == nil || !strings.Contains(err.Error(), "not a Linux ELF executable") {
			t.Fatalf("error = %v, want not ELF", err)
		}
	})
	t.Run("missing", func(t *testing.T) {
		if _, err := env.CheckStaticELF(filepath.Join(dir, "nope")); !errors.Is(err, os.ErrNotExist) {
			t.Fatalf("error = %v, want not exist", err)
		}
	})
}

func TestWorkerRootfs(t *testing.T) {
	ctx, err := workerRootfs([]byte("\x7fELF binary"))
	if err != nil {
		t.Fatal(err)
	}
	type entry struct {
		mode int64
		body string
	}
	got := map[string]entry{}
	tr := tar.NewReader(bytes.NewReader(ctx))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(tr)
		got[h.Name] = entry{h.Mode, string(b)}
	}
	want := map[string]entry{
		"tmp/":   {0o1777, ""},
		"boxtax": {0o755, "\x7fELF binary"},
	}
	for name, w := range want {
		if g, ok := got[name]; !ok || g != w {
			t.Errorf("%s = %+v (present %v), want mode %o body %q", name, g, ok, w.mode, w.body)
		}
	}
	if len(got) != len(want) {
		t.Errorf("the root filesystem holds %d entries, want %d", len(got), len(want))
	}
	again, _ := workerRootfs([]byte("\x7fELF binary"))
	if !bytes.Equal(ctx, again) {
		t.Error("the same binary gave two different root filesystems")
	}
}

func TestDockerEnvironmentsRegistered(t *testing.T) {
	for name, mode := range map[string]string{"docker-bridge": "bridge", "docker-host": "host"} {
		e := envtest.New(t, Environments(), name, env.Options{})
		if d, ok := e.(*Env); !ok || d.networkMode != mode || e.Description() == "" {
			t.Errorf("%s: got %#v, want network mode %s and a description", name, e, mode)
		}
	}
}

func TestDockerUnavailableWithoutDaemon(t *testing.T) {
	dir := testenv.SocketDir(t)
	host := "unix://" + filepath.Join(dir, "docker.sock")
	t.Setenv("DOCKER_HOST", host)
	e := envtest.New(t, Environments(), "docker-bridge", env.Options{BinaryPath: "/nonexistent"})
	start := time.Now()
	err := e.Available(context.Background())
	if took := time.Since(start); took > 30*time.Second { // a hang, not speed: a busy machine
		t.Errorf("Available took %v, want it to fail, not hang", took)
	}
	want := "cannot reach Docker at " + host + ": is the daemon running? Start it (systemctl start docker), " +
		"set DOCKER_HOST, or use --envs native"
	if err == nil || !strings.Contains(err.Error(), want) {
		t.Fatalf("error = %v\nwant it to contain %q", err, want)
	}
	if _, err := e.Start(context.Background(), env.Spec{Args: []string{"x"}}, io.Discard, io.Discard); err == nil ||
		!strings.Contains(err.Error(), "cannot reach Docker") {
		t.Errorf("Start without a daemon: error = %v, want cannot reach Docker", err)
	}
}

func TestRealtimeBudgetHintNamesTheParentCgroup(t *testing.T) {
	spec := env.Spec{CPURealtimeRuntimeUs: 950000}
	podman := errors.New(`runc create failed: unable to apply cgroup configuration: failed to write "950000": write /sys/fs/cgroup/cpu/libpod_parent/libpod-5e8cb43/cpu.rt_runtime_us: invalid argument`)
	if got := realtimeBudgetHint(podman, spec).Error(); !strings.Contains(got, "echo 950000 > /sys/fs/cgroup/cpu/libpod_parent/cpu.rt_runtime_us") || strings.Contains(got, "dockerd") {
		t.Errorf("Podman's refusal: %s", got)
	}
	dockerErr := errors.New(`failed to write 950000 to cpu.rt_runtime_us: write /sys/fs/cgroup/cpu/docker/abc123/cpu.rt_runtime_us: invalid argument`)
	if got := realtimeBudgetHint(dockerErr, spec).Error(); !strings.Contains(got, "--cpu-rt-runtime=950000") || !strings.Contains(got, "/sys/fs/cgroup/cpu/docker/cpu.rt_runtime_us") {
		t.Errorf("Docker's refusal: %s", got)
	}
	if other := errors.New("no such image"); realtimeBudgetHint(other, spec) != other {
		t.Error("an unrelated error was changed")
	}
}
