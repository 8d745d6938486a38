package env

import (
	"context"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/wire"
)

// CleanOptions say what Clean removes besides what boxtax processes that
// no longer run left behind.
type CleanOptions struct {
	Force  bool // also the containers of a boxtax that still runs (its study loses the run in flight)
	Images bool // also the images boxtax built
}

// Cleaner is implemented by environments whose engine keeps what boxtax
// made after a crash (containers, images, bridges) and can remove it, as
// `boxtax clean` asks. The environments of one engine share what they
// clean, so Clean asks one of each.
type Cleaner interface {
	// Clean removes boxtax's leftovers in the engine and says what it
	// did, a line each; on an error it says what it did before.
	Clean(ctx context.Context, o CleanOptions) (done []string, err error)
}

var (
	_ Cleaner = (*dockerEnv)(nil)
	_ Cleaner = (*podmanEnv)(nil)
	_ Cleaner = (*lxcEnv)(nil)
)

// oneOfEachEngine are the environments boxtax sysinfo asks about their
// engine (HostEngines) and boxtax clean cleans (Clean), one of each
// engine: not podman-rootless, whose service starts as another user.
var oneOfEachEngine = []string{"docker-bridge", "podman-host", "lxc"}

// Clean removes what boxtax left behind in every engine (Cleaner), then the
// storage=bind directories and the wires of processes that no longer run,
// and says what it did, a line each. It stops at the first that fails.
func Clean(ctx context.Context, o Options, co CleanOptions) (done []string, err error) {
	for _, name := range oneOfEachEngine {
		e, err := New(name, o)
		if err != nil {
			return done, err
		}
		c, ok := e.(Cleaner)
		if !ok {
			continue
		}
		lines, err := c.Clean(ctx, co)
		done = append(done, lines...)
		if err != nil {
			return done, err
		}
	}
	if images, err := removeImageRoots(); err != nil || len(images) > 0 { // image_rootfs.go
		if done = append(done, images...); err != nil {
			return done, err
		}
	}
	lines, err := removeLeftovers(ctx, o.getenv())
	return append(done, lines...), err
}

// removeLeftovers removes what boxtax processes that no longer run left
// outside the engines: their storage=bind and scratch directories, their Podman
// services with what those still hold, then their wires (network
// namespaces with their links), and says what it removed.
func removeLeftovers(ctx context.Context, getenv func(string) string) (done []string, err error) {
	dirs, err := RemoveStorageLeftovers()
	if len(dirs) > 0 {
		done = append(done, fmt.Sprintf("removed %d storage=bind director(ies) of boxtax processes that no longer run: %s", len(dirs), strings.Join(dirs, " ")))
	}
	if err != nil {
		return done, err
	}
	if _, err := heldImages(); err != nil { // and forgets what killed studies held
		return done, err
	}
	scratch, err := removeScratchLeftovers()
	if line := scratchLine(scratch); line != "" {
		done = append(done, line)
	}
	if err != nil {
		return done, err
	}
	services, err := removePodmanLeftovers(ctx, getenv)
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
