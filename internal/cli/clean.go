package cli

import (
	"context"
	"fmt"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
)

func cleanCmd(ctx context.Context, g *Globals, args []string) error {
	fs := newFlags(g, "clean", "[--images] [--force]")
	images := fs.Bool("images", false, "also remove the images boxtax built (worker images, boxtax image from-host)")
	force := fs.Bool("force", false, "also remove the containers of a boxtax that is still running (its study loses the run in flight)")
	if _, err := parse(fs, args); err != nil {
		return err
	}
	done, err := engines.Clean(ctx, env.Options{BinaryPath: g.Executable, Version: g.Version}, env.CleanOptions{Force: *force, Images: *images})
	for _, line := range done {
		fmt.Fprintln(g.Stdout, line)
	}
	return err
}
