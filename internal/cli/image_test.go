package cli

import (
	"archive/tar"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/testenv"
)

func TestImageFromHostBadInput(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	testenv.WriteFile(t, script, []byte("#!/bin/sh\n"), 0o755)
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"no command", []string{"image"}, "name an image command: from-host"},
		{"unknown command", []string{"image", "from-hub"}, `unknown image command "from-hub"; image commands: from-host`},
		{"no program", []string{"image", "from-host"}, "name at least one executable"},
		{"missing", []string{"image", "from-host", filepath.Join(dir, "nope")}, "program " + filepath.Join(dir, "nope") + " does not exist"},
		{"not ELF", []string{"image", "from-host", script}, "program " + script + " is not an ELF executable"},
		{"missing --file", []string{"image", "from-host", "--file", filepath.Join(dir, "nope.conf"), "/bin/ls"}, "--file " + filepath.Join(dir, "nope.conf") + " does not exist"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			runExits(t, dir, ExitUsage, tt.args, tt.want)
		})
	}
}

func TestImageFromHostDockerUnreachable(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("DOCKER_HOST", "unix://"+filepath.Join(dir, "no-docker.sock"))
	res := runIn(t, dir, "image", "from-host", "/bin/ls")
	stderrSays(t, res, "cannot reach Docker at unix://", "no-docker.sock", "DOCKER_HOST")
	if res.code != ExitUsage {
		t.Errorf("exit %d, want %d", res.code, ExitUsage)
	}
}

func TestImageFromHost(t *testing.T) {
	c := testenv.RequireDocker(t)
	const redis = "/usr/bin/redis-server"
	testenv.RequireTool(t, redis, "redis-server")
	dir := t.TempDir()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	tag := "boxtax-cli-test-redis:" + hex.EncodeToString(b)
	removeImagesAtEnd(t, c, tag)
	res := runOK(t, dir, "image", "from-host", "--tag", tag, "--file", "/etc/hostname", redis)
	stdoutSays(t, res, "tag          "+tag, "image id     sha256:", "(built now)", "size ", "programs     "+redis,
		"libraries ", "libc.so.6", "generated    /etc/group /etc/nsswitch.conf /etc/passwd, /tmp (1777)",
		"run it       docker run --rm "+tag+" "+redis)
	again := runIn(t, dir, "image", "from-host", "--tag", tag, "--file", "/etc/hostname", redis)
	if again.code != ExitOK || !strings.Contains(again.stdout, "already there with the same files") {
		t.Errorf("second run: exit %d, stdout:\n%s", again.code, again.stdout)
	}
}

// TestImageFromHostRefusesForeignTag: --tag naming an image boxtax did not
// make exits with the usage code, says what to do, and leaves the image
// (issue 15, item 2).
func TestImageFromHostRefusesForeignTag(t *testing.T) {
	c := testenv.RequireDocker(t)
	ctx := context.Background()
	b := make([]byte, 4)
	_, _ = rand.Read(b)
	tag := "boxtax-cli-test-foreign:" + hex.EncodeToString(b)
	var rootfs bytes.Buffer
	tw := tar.NewWriter(&rootfs)
	_ = tw.WriteHeader(&tar.Header{Name: "hello", Mode: 0o644, Size: 2, Typeflag: tar.TypeReg})
	_, _ = tw.Write([]byte("hi"))
	_ = tw.Close()
	id, err := c.ImageImport(ctx, &rootfs, docker.ImportOptions{Tag: tag})
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		if err := c.ImageRemove(context.Background(), tag, true); err != nil {
			t.Errorf("removing %s: %v", tag, err)
		}
	}()
	res := runIn(t, t.TempDir(), "image", "from-host", "--tag", tag, "/bin/ls")
	if res.code != ExitUsage || !strings.Contains(res.stderr, "was not made by boxtax") || !strings.Contains(res.stderr, "choose another --tag") {
		t.Errorf("exit %d, stderr %q; want %d and a refusal saying what to do", res.code, res.stderr, ExitUsage)
	}
	if img, err := c.ImageInspect(ctx, tag); err != nil || img.ID != id {
		t.Errorf("the foreign image changed: %s, %v (was %s)", img.ID, err, id)
	}
}

// removeImagesAtEnd removes the images tags from the engine c when the
// test ends; one already gone is fine, any other error fails the test.
func removeImagesAtEnd(t *testing.T, c *docker.Client, tags ...string) {
	t.Cleanup(func() {
		for _, tag := range tags {
			if err := c.ImageRemove(context.Background(), tag, true); err != nil && !docker.IsNotFound(err) {
				t.Errorf("removing %s: %v", tag, err)
			}
		}
	})
}
