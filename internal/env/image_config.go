package env

import (
	"context"
	"fmt"
	"maps"
	"runtime"
	"slices"

	"github.com/boxtax/boxtax/internal/docker"
)

// ImageConfig is what an image study needs to know of the user's image:
// its id (which every environment must run), how its program runs, and
// what it serves.
type ImageConfig struct {
	ID           string
	Architecture string // GOARCH's names: amd64, arm64...
	Entrypoint   []string
	Cmd          []string
	Env          []string // KEY=value
	WorkingDir   string
	User         string
	Ports        []string // ExposedPorts: "1883/tcp"
	Volumes      []string // paths
	SizeBytes    int64
}

// InspectImage reads the image name's config from Docker (the engine whose
// images the native side unpacks; Podman gets the same image moved to it).
// An image Docker lacks is moved to it by fromPodman (env/podman), the
// same id. An image for another architecture than this host's is refused:
// running it under qemu would measure qemu.
func InspectImage(ctx context.Context, name string, o Options, fromPodman func(ctx context.Context, name string, to *docker.Client) error) (ImageConfig, error) {
	c, err := docker.FromGetenv(o.Getenv)
	if err != nil {
		return ImageConfig{}, fmt.Errorf("image %s: %w", name, err)
	}
	img, err := c.ImageInspect(ctx, name)
	if docker.IsNotFound(err) {
		if err = fromPodman(ctx, name, c); docker.IsNotFound(err) {
			return ImageConfig{}, fmt.Errorf("image %s is neither in Docker nor in Podman: build, load or pull it first (boxtax pulls nothing)", name)
		} else if err != nil {
			return ImageConfig{}, fmt.Errorf("image %s is not in Docker, and Podman cannot give it: %w; build, load or pull it into Docker (boxtax pulls nothing)", name, err)
		}
		img, err = c.ImageInspect(ctx, name)
	}
	if err != nil {
		return ImageConfig{}, fmt.Errorf("image %s: %w", name, err)
	}
	out := ImageConfig{
		ID: img.ID, Architecture: img.Architecture, Entrypoint: img.Config.Entrypoint, Cmd: img.Config.Cmd,
		Env: img.Config.Env, WorkingDir: img.Config.WorkingDir, User: img.Config.User,
		Ports: slices.Sorted(maps.Keys(img.Config.ExposedPorts)), Volumes: slices.Sorted(maps.Keys(img.Config.Volumes)),
		SizeBytes: img.SizeBytes,
	}
	if out.Architecture != "" && out.Architecture != runtime.GOARCH {
		return ImageConfig{}, fmt.Errorf("image %s (%s) is built for %s and this host runs %s: it would run under qemu, which measures qemu, not the container; build the image for %s (docker build --platform linux/%s)",
			name, ShortID(out.ID), out.Architecture, runtime.GOARCH, runtime.GOARCH, runtime.GOARCH)
	}
	return out, nil
}
