package env

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
)

// Clean implements Cleaner: it removes every container boxtax made
// (labelled io.boxtax.managed=true), running or not, on the daemon that
// DOCKER_HOST names, and with Images every image boxtax built. It is what
// `boxtax clean` does after a crash left containers behind; it leaves the
// containers of a boxtax that still runs on this machine unless Force.
func (d *dockerEnv) Clean(ctx context.Context, o CleanOptions) ([]string, error) {
	if d.clientErr != nil {
		return nil, d.clientErr
	}
	removed, live, err := removeManaged(ctx, d.client, map[string]string{labelManaged: "true"}, o.Force)
	if err != nil {
		return nil, err
	}
	done := []string{fmt.Sprintf("removed %d container(s) started by boxtax", removed)}
	if live > 0 {
		done = append(done, fmt.Sprintf("left %d container(s) of a boxtax that is still running (--force removes them too)", live))
	}
	if !o.Images {
		return done, nil
	}
	tags, err := removeManagedImages(ctx, d.client, map[string]string{labelManaged: "true"})
	return append(done, fmt.Sprintf("removed %d image(s) built by boxtax %s", len(tags), strings.Join(tags, " "))), err
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

// removeManagedImages removes every image boxtax built (labelled
// io.boxtax.managed=true: worker images, with or without host programs,
// and `boxtax image from-host` images) that carry the labels on the daemon
// behind c, tag by tag, and returns the tags (or ids) it removed. An image
// a container still uses stays, with an error naming it.
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
