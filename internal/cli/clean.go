package cli

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/env"
)

func cleanCmd(ctx context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "clean", "")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	n, err := env.RemoveManaged(ctx, env.Options{BinaryPath: g.Executable, Version: g.Version})
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "removed %d container(s) started by boxtax\n", n)
	return nil
}
