package env

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/docker"
)

// imageRootfs is the root filesystem of an image study's LXC containers:
// the very files native runs (ensureImageRootfs, unpacked from Docker once
// per image id), with this boxtax binary at the same path as in a
// container of the image. A /proc is mounted there for native runs; LXC
// mounts its own over it inside the container.
func (l *lxcEnv) imageRootfs(ctx context.Context, spec Spec) (dir, id string, err error) {
	c, err := docker.FromGetenv(l.opts.Getenv)
	if err != nil {
		return "", "", fmt.Errorf("lxc: the image's files are read through Docker: %w", err)
	}
	if dir, id, err = ensureImageRootfs(ctx, c, spec.Image, spec.ImageID); err != nil {
		return "", "", fmt.Errorf("lxc: %w", err)
	}
	n := &native{bin: l.opts.BinaryPath}
	if err := n.copyBinaryInto(dir); err != nil {
		return "", "", fmt.Errorf("lxc: %w", err)
	}
	return dir, id, nil
}
