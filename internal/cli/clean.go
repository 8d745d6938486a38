package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/wire"
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
	wires, err := wire.RemoveStale(ctx)
	if len(wires) > 0 {
		fmt.Fprintf(g.Stdout, "removed %d network namespace(s) of boxtax processes that no longer run: %s\n", len(wires), strings.Join(wires, " "))
	}
	return err
}
