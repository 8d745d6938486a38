package docker

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// labelHostPrograms lists, on a worker image, the host programs it holds.
const labelHostPrograms = hostimage.LabelHostPrograms

// hostWorkerImages remembers, by worker image and program list, the images
// made for workers that start host programs, so that the files are hashed
// and the image looked for once per process. workerImages' mutex guards it:
// concurrent instances build an image once.
var hostWorkerImages = map[string]workerImage{}

// hostWorkerTag names the worker image with host programs: the plain
// worker image's tag (which holds the binary's hash) and the first 12 hex
// digits of the hash of the host files, e.g. boxtax-worker:0123456789ab-fedcba987654.
func hostWorkerTag(base workerImage, setHash string) string {
	return base.Tag + "-" + setHash[:12]
}

// workerImageFor is the image a spec's worker runs from: the plain worker
// image, or one that also holds the spec's host programs.
func workerImageFor(ctx context.Context, c *docker.Client, o env.Options, base workerImage, spec env.Spec) (workerImage, error) {
	if len(spec.HostPrograms) == 0 {
		return base, nil
	}
	return ensureHostWorkerImage(ctx, c, o, base, env.HostProgramList(spec.HostPrograms), env.HostProgramList(spec.HostFiles))
}

// ensureHostWorkerImage returns the worker image holding the boxtax binary
// as the plain worker image does (/boxtax, /tmp, ENTRYPOINT) plus the
// programs with their libraries and run-time files (internal/hostimage),
// building it unless the engine has its tag.
func ensureHostWorkerImage(ctx context.Context, c *docker.Client, o env.Options, base workerImage, programs, files []string) (workerImage, error) {
	workerImages.Lock()
	defer workerImages.Unlock()
	key := c.Host() + "\x00" + base.Tag + "\x00" + strings.Join(programs, "\x00") + "\x00\x00" + strings.Join(files, "\x00")
	if img, ok := hostWorkerImages[key]; ok {
		return img, nil
	}
	set, err := hostimage.Build(programs, hostimage.Options{Files: files})
	if err != nil {
		return workerImage{}, fmt.Errorf("the worker image with host programs: %w", err)
	}
	setHash, err := set.Hash()
	if err != nil {
		return workerImage{}, fmt.Errorf("the worker image with host programs: %w", err)
	}
	if err := set.AddHostFile("/boxtax", o.BinaryPath, 0o755); err != nil {
		return workerImage{}, fmt.Errorf("the worker binary for the container image: %w", err)
	}
	version := o.Version
	if version == "" {
		version = "unknown"
	}
	tag := hostWorkerTag(base, setHash)
	img, _, err := hostimage.EnsureImage(ctx, c, set, hostimage.ImageOptions{
		Tag: tag,
		Labels: map[string]string{env.LabelManaged: "true", env.LabelVersion: version, labelHostPrograms: strings.Join(programs, ","),
			hostimage.LabelFilesHash: setHash},
		Entrypoint: []string{"/boxtax"},
	})
	if err != nil {
		return workerImage{}, fmt.Errorf("the worker image with host programs %s: %w", strings.Join(programs, ", "), err)
	}
	w := workerImage{Tag: tag, ID: img.ID}
	if err := env.HoldImage(w.ID); err != nil {
		return workerImage{}, err
	}
	hostWorkerImages[key] = w
	return w, nil
}

// ImageFor implements ImageTeller for Docker and Podman.
func (d *Env) ImageFor(ctx context.Context, spec env.Spec) (env.ImageInfo, bool, error) {
	if spec.Image != "" || len(spec.HostPrograms) == 0 {
		return env.ImageInfo{}, false, nil
	}
	base, _, err := d.prepared(ctx)
	if err != nil {
		return env.ImageInfo{}, false, err
	}
	set, err := hostimage.Build(env.HostProgramList(spec.HostPrograms), hostimage.Options{Files: env.HostProgramList(spec.HostFiles)})
	if err != nil {
		return env.ImageInfo{}, false, fmt.Errorf("%s: the image with host programs: %w", d.name, err)
	}
	hash, err := set.Hash()
	if err != nil {
		return env.ImageInfo{}, false, fmt.Errorf("%s: the image with host programs: %w", d.name, err)
	}
	sum := set.Summary()
	info := env.ImageInfo{Tag: hostWorkerTag(base, hash), Bytes: sum.Bytes, Files: sum.Files + 1}
	if fi, err := os.Stat(d.opts.BinaryPath); err == nil {
		info.Bytes += fi.Size()
	}
	switch _, err := d.client.ImageInspect(ctx, info.Tag); {
	case err == nil:
		info.Exists = true
	case !docker.IsNotFound(err):
		return env.ImageInfo{}, false, fmt.Errorf("%s: looking for the image %s: %w", d.name, info.Tag, err)
	}
	return info, true, nil
}
