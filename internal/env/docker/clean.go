package docker

import (
	"context"
	"errors"
	"fmt"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
)

// Clean implements Cleaner: it removes every container boxtax started
// (ownContainer), running or not, on the daemon that DOCKER_HOST names, and
// with Images every image boxtax built. It is what `boxtax clean` does
// after a crash left containers behind; it leaves the containers of a
// boxtax that still runs on this machine unless Force, and never touches a
// container boxtax did not start, even one of a boxtax image.
func (d *Env) Clean(ctx context.Context, o env.CleanOptions) ([]string, error) {
	if d.clientErr != nil {
		return nil, d.clientErr
	}
	res, err := RemoveManaged(ctx, d.client, map[string]string{env.LabelManaged: "true"}, o.Force)
	if err != nil {
		return nil, err
	}
	done := []string{fmt.Sprintf("removed %d container(s) started by boxtax", res.Removed)}
	if res.Live > 0 {
		done = append(done, fmt.Sprintf("left %d container(s) of a boxtax that is still running (--force removes them too)", res.Live))
	}
	if res.NotOurs > 0 {
		done = append(done, fmt.Sprintf("left %d container(s) that boxtax did not start (they carry boxtax's labels from their image): they are yours", res.NotOurs))
	}
	images, err := CleanImages(ctx, d.client, "", o.Images)
	return append(done, images...), err
}

// Removed says what RemoveManaged did: the containers it removed, those
// of a controller that still runs, and those it left as not boxtax's.
type Removed struct {
	Removed, Live, NotOurs int
}

// RemoveManaged removes the containers that carry all the labels and that
// boxtax started (ownContainer), except (unless force) those whose
// controller still runs, which it counts.
func RemoveManaged(ctx context.Context, c *docker.Client, labels map[string]string, force bool) (Removed, error) {
	var res Removed
	list, err := c.ContainerList(ctx, labels)
	if err != nil {
		return res, fmt.Errorf("finding boxtax containers: %w", err)
	}
	var errs []error
	for _, ct := range list {
		own, err := ownContainer(ctx, c, ct)
		switch {
		case docker.IsNotFound(err):
			continue // gone meanwhile
		case err != nil:
			errs = append(errs, err)
			continue
		case !own:
			res.NotOurs++
			continue
		case !force && env.ControllerAlive(ct.Labels[env.LabelController]):
			res.Live++
			continue
		}
		err = c.ContainerRemove(ctx, ct.ID, true)
		switch {
		case err == nil:
			res.Removed++
		case docker.IsNotFound(err): // gone meanwhile
		default:
			errs = append(errs, err)
		}
	}
	return res, errors.Join(errs...)
}

// ownContainer says whether boxtax started the container: boxtax sets its
// controller label (LabelController) on every container it creates. A
// container inherits its image's labels, so io.boxtax.managed=true says
// nothing (anything run from a boxtax image has it), and a controller
// label the image has too (an image committed from a boxtax container) was
// inherited, not set.
func ownContainer(ctx context.Context, c *docker.Client, ct docker.ContainerSummary) (bool, error) {
	id := ct.Labels[env.LabelController]
	if id == "" {
		return false, nil
	}
	img, err := c.ImageInspect(ctx, ct.ImageID)
	switch {
	case docker.IsNotFound(err):
		return true, nil // its image is gone: nothing to inherit from
	case err != nil:
		return false, fmt.Errorf("asking for the image of container %s: %w", ct.ID[:min(12, len(ct.ID))], err)
	}
	return img.Config.Labels[env.LabelController] != id, nil
}
