package docker

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// workerImageRepo names the worker images; tests set their own so that they
// remove only images they built.
var workerImageRepo = "boxtax-worker"

// workerImage is a built worker image.
type workerImage struct {
	Tag string // e.g. boxtax-worker:0123456789ab
	ID  string // sha256:...
}

// workerImages remembers the images this process has made sure exist, by
// engine and tag, so that docker-bridge and docker-host share one and build
// it once, and a Podman service beside Docker gets its own.
var workerImages struct {
	sync.Mutex
	byTag map[string]workerImage
}

// ensureWorkerImage returns the worker image for the binary, building it
// unless an image with its tag already exists. The tag holds the first 12
// hex digits of the binary's sha256, so a rebuilt binary gets a new image.
func ensureWorkerImage(ctx context.Context, c *docker.Client, o env.Options) (workerImage, error) {
	workerImages.Lock()
	defer workerImages.Unlock()
	bin, err := os.ReadFile(o.BinaryPath)
	if err != nil {
		return workerImage{}, fmt.Errorf("reading the worker binary for the container image: %w", err)
	}
	sum := sha256.Sum256(bin)
	tag := workerImageRepo + ":" + hex.EncodeToString(sum[:])[:12]
	key := c.Host() + "\x00" + tag
	if img, ok := workerImages.byTag[key]; ok {
		return img, nil
	}
	img, err := c.ImageInspect(ctx, tag)
	switch {
	case err == nil:
	case docker.IsNotFound(err):
		if img.ID, err = buildWorkerImage(ctx, c, tag, bin, o.Version); err != nil {
			return workerImage{}, err
		}
	default:
		return workerImage{}, fmt.Errorf("looking for the worker image %s: %w", tag, err)
	}
	w := workerImage{Tag: tag, ID: img.ID}
	if err := env.HoldImage(w.ID); err != nil {
		return workerImage{}, err
	}
	if workerImages.byTag == nil {
		workerImages.byTag = map[string]workerImage{}
	}
	workerImages.byTag[key] = w
	return w, nil
}

// forgetWorkerImage drops what this process remembers of the image tagged
// tag on c's engine (plain worker image or one with host programs), so
// that the next ensureWorkerImage looks for it, and builds it again if it
// is gone (removed by hand, or by a boxtax clean --images that ran before
// this process held it).
func forgetWorkerImage(c *docker.Client, tag string) {
	workerImages.Lock()
	defer workerImages.Unlock()
	delete(workerImages.byTag, c.Host()+"\x00"+tag)
	prefix := c.Host() + "\x00"
	for k, img := range hostWorkerImages {
		if strings.HasPrefix(k, prefix) && (img.Tag == tag || strings.HasPrefix(img.Tag, tag+"-")) {
			delete(hostWorkerImages, k)
		}
	}
}

// buildWorkerImage imports the worker image from its root filesystem
// (docker import), which every engine supports, builder or not.
func buildWorkerImage(ctx context.Context, c *docker.Client, tag string, bin []byte, version string) (string, error) {
	rootfs, err := workerRootfs(bin)
	if err != nil {
		return "", err
	}
	if version == "" {
		version = "unknown"
	}
	return c.ImageImport(ctx, bytes.NewReader(rootfs), docker.ImportOptions{
		Tag:        tag,
		Labels:     map[string]string{env.LabelManaged: "true", env.LabelVersion: version, hostimage.LabelName: tag},
		Entrypoint: []string{"/boxtax"},
		Message:    hostimage.MessageWorker,
	})
}

// workerRootfs is the worker image's one layer: the boxtax binary alone at
// /boxtax, and an empty /tmp (mode 1777, owner root) where workloads find
// scratch space in the container's own writable layer. It is written as
// every image of host programs is (hostimage), so the same binary gives
// the same bytes.
func workerRootfs(bin []byte) ([]byte, error) {
	s := hostimage.NewSet()
	s.AddDir("/tmp", fs.ModeSticky|0o777)
	s.AddData("/boxtax", bin, 0o755, hostimage.RoleProgram)
	var buf bytes.Buffer
	if err := s.WriteTar(&buf); err != nil {
		return nil, fmt.Errorf("making the worker image's files: %w", err)
	}
	return buf.Bytes(), nil
}
