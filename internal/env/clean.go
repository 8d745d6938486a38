package env

import "context"

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
