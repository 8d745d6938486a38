package docker_test

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/testenv"
)

// podmanService starts Podman's Docker-compatible API on a private socket
// (podman system service --time=0) and stops it when the test ends. It
// skips where podman is not installed, except in CI (CI=true).
func podmanService(t *testing.T) *docker.Client {
	t.Helper()
	testenv.SkipShort(t, "Podman")
	bin := testenv.RequireTool(t, "podman", "podman")
	dir := testenv.SocketDir(t)
	sock := filepath.Join(dir, "podman.sock")
	cmd := exec.Command(bin, "system", "service", "--time=0", "unix://"+sock)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	c, err := docker.NewClient("unix://" + sock)
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for {
		err := c.Ping(context.Background())
		if err == nil {
			return c
		}
		if time.Now().After(deadline) {
			t.Fatalf("podman system service did not answer within 20 s: %v\n%s", err, stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// The same import that makes the worker image on Docker makes it on
// Podman: the files with their modes, the entrypoint and the labels.
func TestImportOnPodman(t *testing.T) {
	c := podmanService(t)
	ctx := context.Background()
	e, err := c.Engine(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name != "Podman Engine" || e.APIVersion == "" {
		t.Errorf("engine %+v, want Podman Engine with a negotiated API version", e)
	}
	var rootfs bytes.Buffer
	tw := tar.NewWriter(&rootfs)
	for _, h := range []tar.Header{
		{Name: "tmp/", Typeflag: tar.TypeDir, Mode: 0o1777},
		{Name: "boxtax", Typeflag: tar.TypeReg, Mode: 0o755, Size: 4},
	} {
		if err := tw.WriteHeader(&h); err != nil {
			t.Fatal(err)
		}
	}
	_, _ = tw.Write([]byte("\x7fELF"))
	_ = tw.Close()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	tag := "boxtax-docker-test-podman:" + hex.EncodeToString(b)
	labels := map[string]string{"io.boxtax.managed": "true", "io.boxtax.test": `spaces, /usr/bin/x=1 'q' ` + hex.EncodeToString(b)}
	id, err := c.ImageImport(ctx, &rootfs, docker.ImportOptions{Tag: tag, Labels: labels, Entrypoint: []string{"/boxtax"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := c.ImageRemove(context.Background(), tag, true); err != nil {
			t.Errorf("removing %s: %v", tag, err)
		}
	})
	img, err := c.ImageInspect(ctx, tag)
	if err != nil || img.ID != id {
		t.Fatalf("inspect %s = %s, %v; want id %s", tag, img.ID, err, id)
	}
	for k, v := range labels {
		if img.Config.Labels[k] != v {
			t.Errorf("label %s = %q, want %q", k, img.Config.Labels[k], v)
		}
	}
	if !slices.Equal(img.Config.Entrypoint, []string{"/boxtax"}) {
		t.Errorf("entrypoint %q, want [/boxtax]", img.Config.Entrypoint)
	}
	list, err := c.ImageList(ctx, map[string]string{"io.boxtax.test": labels["io.boxtax.test"]})
	if err != nil || len(list) != 1 || list[0].ID != id {
		t.Errorf("listing by label = %+v, %v; want the image", list, err)
	}
}
