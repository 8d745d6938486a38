package docker

import (
	"bytes"
	"context"
	"io"
	"strings"
	"testing"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/envtest"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// Issue 42 findings 1, 2 and 4: clean removes what boxtax itself made and
// recorded, never what the user made of it, nor what a running boxtax
// still needs. Each test touches only its own labelled containers and
// images: other boxtax runs share the daemon.

// TestCleanLeavesTheUsersContainers: a container run from a boxtax image
// inherits io.boxtax.managed=true; one from an image committed from a
// boxtax container inherits the controller label as well. Neither is
// boxtax's: only the container boxtax created (its own controller label)
// goes.
func TestCleanLeavesTheUsersContainers(t *testing.T) {
	c, opts := setupDocker(t)
	ctx := context.Background()
	labels := testLabels(t)
	base, err := ensureWorkerImage(ctx, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	committed := importTestImage(t, c, testImageRepo+":committed-"+labels["io.boxtax.test"], map[string]string{
		env.LabelManaged: "true", env.LabelController: envtest.DeadController}, hostimage.MessageWorker)
	create := func(image string, extra map[string]string) string {
		l := map[string]string{"io.boxtax.test": labels["io.boxtax.test"]}
		for k, v := range extra {
			l[k] = v
		}
		ct, err := c.ContainerCreate(ctx, docker.ContainerConfig{Image: image, Cmd: []string{"version"}, Labels: l})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = c.ContainerRemove(context.Background(), ct.ID, true) })
		return ct.ID
	}
	users := create(base.Tag, nil)           // docker run of a boxtax image
	usersCommitted := create(committed, nil) // docker run of an image committed from a boxtax container
	boxtaxs := create(base.Tag, map[string]string{env.LabelController: envtest.DeadController})
	only := map[string]string{env.LabelManaged: "true", "io.boxtax.test": labels["io.boxtax.test"]}
	res, err := RemoveManaged(ctx, c, only, false)
	if err != nil || res.Removed != 1 || res.NotOurs != 2 {
		t.Errorf("RemoveManaged = %+v, %v; want the killed controller's container removed and the user's 2 left", res, err)
	}
	for _, id := range []string{users, usersCommitted} {
		if _, err := c.ContainerInspect(ctx, id); err != nil {
			t.Errorf("the user's container %s of a boxtax image: %v", id[:12], err)
		}
	}
	if _, err := c.ContainerInspect(ctx, boxtaxs); !docker.IsNotFound(err) {
		t.Errorf("boxtax's container of a killed controller is still there: %v", err)
	}
}

// TestCleanImagesTakesOnlyWhatBoxtaxNamed: clean --images removes boxtax's
// image; of one the user tagged as well it takes only boxtax's tag; an
// image built FROM a boxtax image (same labels, the user's name, its own
// comment) stays; so does an image a running boxtax holds.
func TestCleanImagesTakesOnlyWhatBoxtaxNamed(t *testing.T) {
	c, _ := setupDocker(t)
	ctx := context.Background()
	labels := testLabels(t)
	sfx := labels["io.boxtax.test"]
	own := func(tag string) map[string]string {
		return map[string]string{env.LabelManaged: "true", "io.boxtax.test": sfx, hostimage.LabelName: tag}
	}
	plain := testImageRepo + ":plain-" + sfx
	tagged := testImageRepo + ":tagged-" + sfx
	held := testImageRepo + ":held-" + sfx
	importTestImage(t, c, plain, own(plain), hostimage.MessageWorker)
	importTestImage(t, c, tagged, own(tagged), hostimage.MessageWorker)
	heldID := importTestImage(t, c, held, own(held), hostimage.MessageHostPrograms)
	// The user's: an extra tag, and an image built FROM boxtax's (it
	// inherits every label; Docker gives it an empty comment).
	userTag := "owner-myapp-" + sfx
	if err := c.ImageTag(ctx, tagged, userTag, "extratag"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.ImageRemove(context.Background(), userTag+":extratag", true) })
	derived := "owner-derived-" + sfx + ":1"
	importTestImage(t, c, derived, own(plain), "")
	holdForTest(t, heldID)

	only := map[string]string{env.LabelManaged: "true", "io.boxtax.test": sfx}
	lines, err := cleanLabelledImages(ctx, c, only, "", true)
	text := strings.Join(lines, "\n")
	if err != nil {
		t.Fatalf("cleanLabelledImages: %v\n%s", err, text)
	}
	for _, want := range []string{
		"removed image " + plain + " (",
		"untagged " + tagged + ": the image stays, as " + userTag + ":extratag",
		"kept image " + held + ": a running boxtax (pid ",
		"removed 1 image(s) built by boxtax",
		"left 1 image(s) that carry boxtax's labels under a name boxtax did not give them",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("clean --images says\n%s\nwant a line with %q", text, want)
		}
	}
	for ref, want := range map[string]bool{plain: false, tagged: false, userTag + ":extratag": true, derived: true, held: true} {
		_, err := c.ImageInspect(ctx, ref)
		if there := err == nil; there != want {
			t.Errorf("after clean --images, image %s there = %v, want %v (%v)", ref, there, want, err)
		}
	}
}

// TestStartRebuildsAnImageRemovedUnderIt: the worker image removed after
// this process found it (docker rmi, or a clean --images that ran before
// the process held it) is built again when a container starts, not a
// failed run "No such image".
func TestStartRebuildsAnImageRemovedUnderIt(t *testing.T) {
	c, opts, labels := setupLabelledDocker(t)
	ctx := context.Background()
	e := envtest.NewPrepared(t, Environments(), "docker-host", opts)
	img, err := ensureWorkerImage(ctx, c, opts)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.ImageRemove(ctx, img.Tag, true); err != nil {
		t.Fatal(err)
	}
	inst, err := e.Start(ctx, env.Spec{Args: []string{"version"}, Labels: labels}, io.Discard, io.Discard)
	if err != nil {
		t.Fatalf("Start after the worker image was removed: %v", err)
	}
	_ = inst.Wait()
	_ = inst.Stop(ctx)
	if _, err := c.ImageInspect(ctx, img.Tag); err != nil {
		t.Errorf("the worker image was not built again: %v", err)
	}
}

// importTestImage imports a one-file image as boxtax does (docker
// import), with the labels and comment given, removed at the end; it
// returns its id.
func importTestImage(t *testing.T, c *docker.Client, tag string, labels map[string]string, message string) string {
	t.Helper()
	rootfs, err := workerRootfs([]byte("not a program " + tag))
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ImageImport(context.Background(), bytes.NewReader(rootfs), docker.ImportOptions{Tag: tag, Labels: labels,
		Entrypoint: []string{"/boxtax"}, Message: message})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.ImageRemove(context.Background(), tag, true) })
	img, err := c.ImageInspect(context.Background(), tag)
	if err != nil {
		t.Fatal(err)
	}
	return img.ID
}

// holdForTest holds the image as a running study does, and lets go of it
// at the end.
func holdForTest(t *testing.T, id string) {
	t.Helper()
	if err := env.HoldImage(id); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(env.ReleaseImages)
}
