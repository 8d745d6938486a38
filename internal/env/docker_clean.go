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
// after a crash left containers behind; it leaves images alone.
func RemoveManaged(ctx context.Context, _ Options) (removed int, err error) {
	c, err := docker.FromEnv()
	if err != nil {
		return 0, err
	}
	return removeManaged(ctx, c, map[string]string{labelManaged: "true"})
}

// removeManaged removes the containers that carry all the labels.
func removeManaged(ctx context.Context, c *docker.Client, labels map[string]string) (int, error) {
	list, err := c.ContainerList(ctx, labels)
	if err != nil {
		return 0, fmt.Errorf("finding boxtax containers: %w", err)
	}
	removed := 0
	var errs []error
	for _, ct := range list {
		err := c.ContainerRemove(ctx, ct.ID, true)
		switch {
		case err == nil:
			removed++
		case docker.IsNotFound(err): // gone meanwhile
		default:
			errs = append(errs, err)
		}
	}
	return removed, errors.Join(errs...)
}
