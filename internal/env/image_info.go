package env

import (
	"context"
	"fmt"
	"os"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// ImageTeller is implemented by environments that run a worker from an
// image of this host's files they build (internal/hostimage): which image
// a spec's worker needs, how big it is and whether the engine has it, so a
// study can say so before it builds one (issue 27: each --cmd left a 20-35
// MB image behind without saying so).
type ImageTeller interface {
	// ImageFor tells the image of spec's host programs and files; ok is
	// false when spec needs none (no host programs, or the user's image).
	ImageFor(ctx context.Context, spec Spec) (info ImageInfo, ok bool, err error)
}

// ImageInfo is an image of host files for a worker.
type ImageInfo struct {
	Tag    string // e.g. boxtax-worker:0123456789ab-fedcba987654
	Bytes  int64  // of its files, the boxtax binary included
	Files  int    // regular files
	Exists bool   // the engine has it already: nothing is built
}

// ImageFor implements ImageTeller for Docker and Podman.
func (d *dockerEnv) ImageFor(ctx context.Context, spec Spec) (ImageInfo, bool, error) {
	if spec.Image != "" || len(spec.HostPrograms) == 0 {
		return ImageInfo{}, false, nil
	}
	base, _, err := d.prepared(ctx)
	if err != nil {
		return ImageInfo{}, false, err
	}
	set, err := hostimage.Build(hostProgramList(spec.HostPrograms), hostimage.Options{Files: hostProgramList(spec.HostFiles)})
	if err != nil {
		return ImageInfo{}, false, fmt.Errorf("%s: the image with host programs: %w", d.name, err)
	}
	hash, err := set.Hash()
	if err != nil {
		return ImageInfo{}, false, fmt.Errorf("%s: the image with host programs: %w", d.name, err)
	}
	sum := set.Summary()
	info := ImageInfo{Tag: hostWorkerTag(base, hash), Bytes: sum.Bytes, Files: sum.Files + 1}
	if fi, err := os.Stat(d.opts.BinaryPath); err == nil {
		info.Bytes += fi.Size()
	}
	switch _, err := d.client.ImageInspect(ctx, info.Tag); {
	case err == nil:
		info.Exists = true
	case !docker.IsNotFound(err):
		return ImageInfo{}, false, fmt.Errorf("%s: looking for the image %s: %w", d.name, info.Tag, err)
	}
	return info, true, nil
}
