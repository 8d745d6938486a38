package lxc

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

// imageRootfs is the root filesystem of an image study's LXC containers:
// the very files native runs (EnsureImageRootfs, unpacked from Docker once
// per image id), with this boxtax binary at the same path as in a
// container of the image. A /proc is mounted there for native runs; LXC
// mounts its own over it inside the container.
func (l *lxcEnv) imageRootfs(ctx context.Context, spec env.Spec) (dir, id string, err error) {
	c, err := docker.FromGetenv(l.opts.Getenv)
	if err != nil {
		return "", "", fmt.Errorf("lxc: the image's files are read through Docker: %w", err)
	}
	if dir, id, err = env.EnsureImageRootfs(ctx, c, spec.Image, spec.ImageID); err != nil {
		return "", "", fmt.Errorf("lxc: %w", err)
	}
	if err := env.CopyBinaryInto(l.opts.BinaryPath, dir); err != nil {
		return "", "", fmt.Errorf("lxc: %w", err)
	}
	return dir, id, nil
}

// CheckSpec implements SpecChecker for LXC, which runs no image of the
// user's.
func (l *lxcEnv) CheckSpec(ctx context.Context, spec env.Spec) error {
	if spec.Image != "" {
		_, _, err := l.imageRootfs(ctx, spec)
		return err
	}
	if err := env.CheckHostFiles(spec); err != nil {
		return fmt.Errorf("lxc: %w", err)
	}
	return nil
}
