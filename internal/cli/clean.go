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
	n, live, err := env.RemoveManaged(ctx, env.Options{BinaryPath: g.Executable, Version: g.Version}, *force)
	if err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "removed %d container(s) started by boxtax\n", n)
	if live > 0 {
		fmt.Fprintf(g.Stdout, "left %d container(s) of a boxtax that is still running (--force removes them too)\n", live)
	}
	if *images {
		tags, err := env.RemoveManagedImages(ctx, env.Options{})
		fmt.Fprintf(g.Stdout, "removed %d image(s) built by boxtax %s\n", len(tags), strings.Join(tags, " "))
		if err != nil {
			return err
		}
	}
	pn, plive, ptags, err := env.RemovePodmanManaged(ctx, *force, *images)
	if pn > 0 || plive > 0 || len(ptags) > 0 {
		fmt.Fprintf(g.Stdout, "Podman: removed %d container(s) started by boxtax", pn)
		if plive > 0 {
			fmt.Fprintf(g.Stdout, ", left %d of a boxtax that is still running", plive)
		}
		if *images {
			fmt.Fprintf(g.Stdout, "; removed %d image(s) %s", len(ptags), strings.Join(ptags, " "))
		}
		fmt.Fprintln(g.Stdout)
	}
	if err != nil {
		return err
	}
	lxc, err := env.RemoveLXCLeftovers(ctx)
	if n := len(lxc.Containers) + len(lxc.Bridges) + len(lxc.Rootfs); n > 0 {
		fmt.Fprintf(g.Stdout, "removed LXC leftovers of boxtax processes that no longer run: %d container(s) %s, %d bridge(s) %s; %d unused root filesystem(s) %s\n",
			len(lxc.Containers), strings.Join(lxc.Containers, " "), len(lxc.Bridges), strings.Join(lxc.Bridges, " "), len(lxc.Rootfs), strings.Join(lxc.Rootfs, " "))
	}
	if err != nil {
		return err
	}
	dirs, err := env.RemoveStorageLeftovers()
	if len(dirs) > 0 {
		fmt.Fprintf(g.Stdout, "removed %d storage=bind director(ies) of boxtax processes that no longer run: %s\n", len(dirs), strings.Join(dirs, " "))
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
