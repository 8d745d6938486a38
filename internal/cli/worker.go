package cli

import (
	"context"
	"errors"

	"github.com/boxtax/boxtax/internal/worker"
)

// workerCmd parses the worker's flags and runs it (internal/worker): one
// workload, its samples printed as protocol lines.
func workerCmd(ctx context.Context, g *Globals, args []string) error {
	var inv worker.Invocation
	fs := newFlags(g, worker.Command, "--workload NAME [--params JSON]")
	inv.AddFlags(fs)
	if _, err := parse(fs, args); err != nil {
		return err
	}
	err := worker.Main(ctx, inv, g.Stdout, g.Version)
	if errors.As(err, new(worker.UsageError)) {
		return usageError{err}
	}
	return err
}
