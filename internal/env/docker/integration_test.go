package docker

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/testenv"
)

// testImageRepo names the images these tests build, so that they remove
// those and no other.
const testImageRepo = "boxtax-worker-test"

// setupDocker builds the fake worker, points the worker images at the test
// repository, and removes the images built under it when the test ends.
func setupDocker(tb testing.TB) (*docker.Client, env.Options) {
	c := testenv.DockerIntegration(tb)
	bin := envtest.BuildFakeWorker(tb, tb.TempDir())
	saved := workerImageRepo
	workerImageRepo = testImageRepo
	tb.Cleanup(func() {
		workerImageRepo = saved
		workerImages.Lock()
		defer workerImages.Unlock()
		for key, img := range hostWorkerImages { // before the images they extend
			if !strings.HasPrefix(img.Tag, testImageRepo+":") {
				continue
			}
			delete(hostWorkerImages, key)
			if err := c.ImageRemove(context.Background(), img.Tag, true); err != nil && !docker.IsNotFound(err) {
				tb.Errorf("removing test image %s: %v", img.Tag, err)
			}
		}
		for tag := range workerImages.byTag {
			if !strings.HasPrefix(tag, testImageRepo+":") {
				continue
			}
			delete(workerImages.byTag, tag)
			if err := c.ImageRemove(context.Background(), tag, true); err != nil && !docker.IsNotFound(err) {
				tb.Errorf("removing test image %s: %v", tag, err)
			}
		}
	})
	return c, env.Options{BinaryPath: bin, Version: "test"}
}

// testLabels marks the containers of one test run so that the test can
// check that none is left behind.
func testLabels(tb testing.TB) map[string]string {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	return map[string]string{"io.boxtax.test": hex.EncodeToString(b)}
}

// setupLabelledDocker is setupDocker with labels for the test's containers,
// none of which may be left when the test ends (assertNoContainers).
func setupLabelledDocker(t *testing.T) (*docker.Client, env.Options, map[string]string) {
	t.Helper()
	c, opts := setupDocker(t)
	labels := testLabels(t)
	t.Cleanup(func() { assertNoContainers(t, c, labels) })
	return c, opts, labels
}

func assertNoContainers(t *testing.T, c *docker.Client, labels map[string]string) {
	t.Helper()
	list, err := c.ContainerList(context.Background(), labels)
	if err != nil {
		t.Fatal(err)
	}
	for _, ct := range list {
		t.Errorf("container %s (%s) was left behind", ct.ID[:12], ct.State)
		_ = c.ContainerRemove(context.Background(), ct.ID, true)
	}
}

// Ctrl-C while the engine creates a container leaves none behind: the
// engine finishes a create whose request was given up, so Start must learn
// the container's ID and remove it (one was left in state Created about one
// time in four by the cli's second-signal test). The context ends at
// several points of the create, from before the request to after it.
func TestStartCancelledWhileCreatingLeavesNoContainer(t *testing.T) {
	c, opts, labels := setupLabelledDocker(t)
	e := envtest.New(t, Environments(), "docker-host", opts)
	// Warm: the image exists, so that the cancellations fall in the create.
	inst, err := e.Start(context.Background(), env.Spec{Args: []string{"true"}, Labels: labels}, io.Discard, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	_ = inst.Stop(context.Background())
	for _, after := range []time.Duration{0, 2 * time.Millisecond, 5 * time.Millisecond, 10 * time.Millisecond, 20 * time.Millisecond, 40 * time.Millisecond, 80 * time.Millisecond} {
		ctx, cancel := context.WithTimeout(context.Background(), after)
		inst, err := e.Start(ctx, env.Spec{Args: []string{"sleep", "60"}, Labels: labels}, io.Discard, io.Discard)
		cancel()
		if err == nil {
			_ = inst.Stop(context.Background())
		}
		list, lerr := c.ContainerList(context.Background(), labels)
		if lerr != nil {
			t.Fatal(lerr)
		}
		for _, ct := range list {
			t.Errorf("cancelled %v into Start (%v): container %s left behind, %s", after, err, ct.ID[:12], ct.State)
			_ = c.ContainerRemove(context.Background(), ct.ID, true)
		}
	}
}

func TestRemoveManaged(t *testing.T) {
	c, opts := setupDocker(t)
	labels := testLabels(t)
	e := envtest.New(t, Environments(), "docker-host", opts)
	ctx := context.Background()
	for range 2 {
		inst, err := e.Start(ctx, env.Spec{Args: []string{"sleep", "60s"}, Labels: labels}, io.Discard, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		defer inst.Stop(ctx) // after RemoveManaged: finds nothing left to do
	}
	// Only this test's containers: other boxtax runs may share the daemon.
	only := map[string]string{env.LabelManaged: "true", "io.boxtax.test": labels["io.boxtax.test"]}
	// Issue 15 item 3: this process, their controller, still runs, so
	// clean leaves them alone; --force removes them.
	res, err := RemoveManaged(ctx, c, only, false)
	if err != nil || res.Removed != 0 || res.Live != 2 {
		t.Fatalf("RemoveManaged of a live controller's containers = %+v, %v; want 0 removed and 2 live", res, err)
	}
	res, err = RemoveManaged(ctx, c, only, true)
	if err != nil || res.Removed != 2 {
		t.Fatalf("RemoveManaged(force) = %+v, %v; want 2 removed", res, err)
	}
	assertNoContainers(t, c, labels)
}

func TestDockerIntegration(t *testing.T) {
	c, opts, labels := setupLabelledDocker(t)
	for _, tt := range []struct{ env, networkMode string }{{"docker-bridge", "bridge"}, {"docker-host", "host"}} {
		t.Run(tt.env, func(t *testing.T) {
			e := envtest.NewPrepared(t, Environments(), tt.env, opts)
			t.Run("output arrives whole and in order", func(t *testing.T) { testOutput(t, c, e, labels, tt.networkMode) })
			t.Run("non-zero exit", func(t *testing.T) {
				envtest.CheckNonZeroExit(t, e, labels)
			})
			t.Run("capabilities and cpuset", func(t *testing.T) { testCapabilities(t, c, e, labels) })
			t.Run("scratch space in /tmp", func(t *testing.T) {
				envtest.CheckScratchTmp(t, e, labels)
			})
			t.Run("cancel stops promptly", func(t *testing.T) { testCancel(t, c, e, labels) })
			t.Run("Stop ends a blocked Wait", func(t *testing.T) { envtest.CheckStopEndsWait(t, e, labels, 0) })
		})
	}
}

var containerID = regexp.MustCompile(`^[0-9a-f]{64}$`)

func testOutput(t *testing.T, c *docker.Client, e env.Environment, labels map[string]string, networkMode string) {
	settings := envtest.CheckWholeOutput(t, e, labels)
	if !containerID.MatchString(settings["container_id"]) {
		t.Errorf("container_id = %q, want 64 hex digits", settings["container_id"])
	}
	envtest.CheckSettings(t, settings, map[string]string{"env": e.Name(), "network_mode": networkMode, "cpuset": "all"})
	if !strings.HasPrefix(settings["image"], testImageRepo+":") || !strings.HasPrefix(settings["image_id"], "sha256:") ||
		settings["storage_driver"] == "" || settings["create_ms"] == "" || settings["start_ms"] == "" {
		t.Errorf("settings lack image, image_id, storage_driver or timings: %v", settings)
	}
	if _, err := c.ContainerInspect(context.Background(), settings["container_id"]); !docker.IsNotFound(err) {
		t.Errorf("the container still exists after Run: inspect error = %v", err)
	}
}

func testCapabilities(t *testing.T, c *docker.Client, e env.Environment, labels map[string]string) {
	ctx := context.Background()
	var out bytes.Buffer
	inst, err := e.Start(ctx, env.Spec{Args: []string{"caps"}, Labels: labels, CapAdd: []string{"SYS_NICE"}, CPUSet: "0"}, &out, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer inst.Stop(ctx)
	id := inst.Settings()["container_id"]
	ct, err := c.ContainerInspect(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(strings.Join(ct.HostConfig.CapAdd, ","), "SYS_NICE") || ct.HostConfig.CpusetCpus != "0" {
		t.Errorf("inspect: CapAdd %v, CpusetCpus %q; want SYS_NICE and 0", ct.HostConfig.CapAdd, ct.HostConfig.CpusetCpus)
	}
	if s := inst.Settings(); !strings.Contains(s["cap_add"], "SYS_NICE") || s["cpuset"] != "0" {
		t.Errorf("settings: cap_add %q, cpuset %q; want SYS_NICE and 0", s["cap_add"], s["cpuset"])
	}
	if err := inst.Wait(); err != nil {
		t.Fatal(err)
	}
	capEff := envtest.ParseCapEff(t, out.String())
	const capSysNice = 23
	if capEff&(1<<capSysNice) == 0 {
		t.Errorf("CapEff %x lacks CAP_SYS_NICE inside the container", capEff)
	}
	for range 2 { // idempotent, also after Wait
		if err := inst.Stop(ctx); err != nil {
			t.Errorf("Stop: %v", err)
		}
	}
	if _, err := c.ContainerInspect(ctx, id); !docker.IsNotFound(err) {
		t.Errorf("container %s still exists after Stop: %v", id[:12], err)
	}
}

func testCancel(t *testing.T, c *docker.Client, e env.Environment, labels map[string]string) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &envtest.FirstWrite{Started: make(chan struct{})}
	cancelledAt := make(chan time.Time, 1)
	go func() { // cancel once the worker runs, as Ctrl-C would
		select {
		case <-out.Started:
		case <-time.After(20 * time.Second):
		}
		cancelledAt <- time.Now()
		cancel()
	}()
	_, err := env.Run(ctx, e, env.Spec{Args: []string{"sleep", "60s"}, Labels: labels}, out, os.Stderr)
	// Well before the 60 s sleep ends; removing a container on a busy
	// machine takes seconds (a liveness bound, not a speed).
	if took := time.Since(<-cancelledAt); took > 30*time.Second {
		t.Errorf("Run returned %v after the cancel, want it well before the 60 s sleep ends", took)
	}
	if !errors.Is(err, context.Canceled) {
		t.Errorf("error = %v, want context.Canceled", err)
	}
	assertNoContainers(t, c, labels)
}
