package engines

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/docker"
	"github.com/boxtax/boxtax/internal/env/podman"
	"github.com/boxtax/boxtax/internal/wire"
)

// oneOfEachEngine are the environments boxtax sysinfo asks about their
// engine (HostEngines) and boxtax clean cleans (Clean), one of each
// engine: not podman-rootless, whose service starts as another user.
var oneOfEachEngine = []string{"docker-bridge", "podman-host", "lxc"}

// Clean removes what boxtax left behind in every engine (Cleaner), then the
// storage=bind directories and the wires of processes that no longer run,
// and says what it did, a line each. It stops at the first that fails.
func Clean(ctx context.Context, o env.Options, co env.CleanOptions) (done []string, err error) {
	for _, name := range oneOfEachEngine {
		e, err := New(name, o)
		if err != nil {
			return done, err
		}
		c, ok := e.(env.Cleaner)
		if !ok {
			continue
		}
		lines, err := c.Clean(ctx, co)
		done = append(done, lines...)
		if err != nil {
			return done, err
		}
	}
	if images, err := env.RemoveImageRoots(); err != nil || len(images) > 0 { // image_rootfs.go
		if done = append(done, images...); err != nil {
			return done, err
		}
	}
	lines, err := removeLeftovers(ctx, o.GetenvOrOS())
	return append(done, lines...), err
}

// removeLeftovers removes what boxtax processes that no longer run left
// outside the engines: their storage=bind and scratch directories, their Podman
// services with what those still hold, then their wires (network
// namespaces with their links), and says what it removed.
func removeLeftovers(ctx context.Context, getenv func(string) string) (done []string, err error) {
	dirs, err := docker.RemoveStorageLeftovers()
	if len(dirs) > 0 {
		done = append(done, fmt.Sprintf("removed %d storage=bind director(ies) of boxtax processes that no longer run: %s", len(dirs), strings.Join(dirs, " ")))
	}
	if err != nil {
		return done, err
	}
	if _, err := env.HeldImages(); err != nil { // and forgets what killed studies held
		return done, err
	}
	scratch, err := env.RemoveScratchLeftovers()
	if line := env.ScratchLine(scratch); line != "" {
		done = append(done, line)
	}
	if err != nil {
		return done, err
	}
	services, err := podman.RemoveLeftovers(ctx, getenv)
	done = append(done, services...)
	if err != nil {
		return done, err
	}
	wires, err := wire.RemoveStale(ctx)
	if len(wires) > 0 {
		done = append(done, fmt.Sprintf("removed %d network namespace(s) of boxtax processes that no longer run: %s", len(wires), strings.Join(wires, " ")))
	}
	return done, err
}
