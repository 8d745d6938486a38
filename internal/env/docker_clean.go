package env

import (
	"context"
	"errors"
	"fmt"

	"github.com/boxtax/boxtax/internal/docker"
)

// RemoveManaged removes every container boxtax made (labelled
// io.boxtax.managed=true), running or not, on the daemon that DOCKER_HOST
// names, and returns how many it removed. It is what `boxtax clean` does
// after a crash left containers behind; it leaves images alone, and the
// containers of a boxtax that still runs on this machine unless force.
func RemoveManaged(ctx context.Context, o Options, force bool) (removed, live int, err error) {
	c, err := docker.FromGetenv(o.Getenv)
	if err != nil {
		return 0, 0, err
	}
	return removeManaged(ctx, c, map[string]string{labelManaged: "true"}, force)
}

// removeManaged removes the containers that carry all the labels, except
// (unless force) those whose controller still runs, which it counts.
func removeManaged(ctx context.Context, c *docker.Client, labels map[string]string, force bool) (removed, live int, err error) {
	list, err := c.ContainerList(ctx, labels)
	if err != nil {
		return 0, 0, fmt.Errorf("finding boxtax containers: %w", err)
	}
	var errs []error
	for _, ct := range list {
		if !force && ControllerAlive(ct.Labels[labelController]) {
			live++
			continue
		}
		err := c.ContainerRemove(ctx, ct.ID, true)
		switch {
		case err == nil:
			removed++
		case docker.IsNotFound(err): // gone meanwhile
		default:
			errs = append(errs, err)
		}
	}
	return removed, live, errors.Join(errs...)
}

// RemoveManagedImages removes every image boxtax built (labelled
// io.boxtax.managed=true: worker images, with or without host programs,
// and `boxtax image from-host` images) on the daemon that DOCKER_HOST
// names, tag by tag, and returns the tags (or ids) it removed. An image a
// container still uses stays, with an error naming it.
func RemoveManagedImages(ctx context.Context, o Options) (removed []string, err error) {
	c, err := docker.FromGetenv(o.Getenv)
	if err != nil {
		return nil, err
	}
	return removeManagedImages(ctx, c, map[string]string{labelManaged: "true"})
}

func removeManagedImages(ctx context.Context, c *docker.Client, labels map[string]string) ([]string, error) {
	list, err := c.ImageList(ctx, labels)
	if err != nil {
		return nil, fmt.Errorf("finding boxtax images: %w", err)
	}
	var removed []string
	var errs []error
	for _, img := range list {
		refs := img.RepoTags
		if len(refs) == 0 || len(refs) == 1 && refs[0] == "<none>:<none>" {
			refs = []string{img.ID}
		}
		for _, ref := range refs {
			err := c.ImageRemove(ctx, ref, false)
			switch {
			case err == nil:
				removed = append(removed, ref)
			case docker.IsNotFound(err): // gone meanwhile
			default:
				errs = append(errs, fmt.Errorf("removing image %s: %w", ref, err))
			}
		}
	}
	return removed, errors.Join(errs...)
}
