package env

import (
	"context"
	"errors"
	"fmt"

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
	images, err := cleanImages(ctx, d.client, "", o.Images)
	return append(done, images...), err
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
