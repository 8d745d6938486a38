package env

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Closer is implemented by environments that hold something for a whole
// study once prepared (lxc: its bridge and NAT rules) and give it back when
// the study ends, also after Ctrl-C.
type Closer interface {
	Close(ctx context.Context) error
}

// CloseAll closes the environments that are Closers, each bounded in time
// and also when ctx has ended (Ctrl-C), and joins their errors.
func CloseAll(ctx context.Context, envs map[string]Environment) error {
	var errs []error
	for name, e := range envs {
		c, ok := e.(Closer)
		if !ok {
			continue
		}
		closeCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		if err := c.Close(closeCtx); err != nil {
			errs = append(errs, fmt.Errorf("closing environment %s: %w", name, err))
		}
		cancel()
	}
	return errors.Join(errs...)
}
