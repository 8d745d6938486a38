package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/wire"
)

func cleanCmd(ctx context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "clean", "[--images] [--force]")
	images := fs.Bool("images", false, "also remove the images boxtax built (worker images, boxtax image from-host)")
	force := fs.Bool("force", false, "also remove the containers of a boxtax that is still running (its study loses the run in flight)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	done, err := env.Clean(ctx, env.Options{BinaryPath: g.Executable, Version: g.Version}, env.CleanOptions{Force: *force, Images: *images})
	for _, line := range done {
		fmt.Fprintln(g.Stdout, line)
	}
	if err != nil {
		return err
	}
	wires, err := wire.RemoveStale(ctx)
	if len(wires) > 0 {
		fmt.Fprintf(g.Stdout, "removed %d network namespace(s) of boxtax processes that no longer run: %s\n", len(wires), strings.Join(wires, " "))
	}
	return err
}
