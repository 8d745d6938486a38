package env

import (
	"context"
	"slices"
)

// ImageTeller is implemented by environments that run a worker from an
// image of this host's files they build (internal/hostimage): which image
// a spec's worker needs, how big it is and whether the engine has it, so a
// study can say so before it builds one (issue 27: each --cmd left a 20-35
// MB image behind without saying so).
type ImageTeller interface {
	// ImageFor tells the image of spec's host programs and files; ok is
	// false when spec needs none (no host programs, or the user's image).
	ImageFor(ctx context.Context, spec Spec) (info ImageInfo, ok bool, err error)
}

// ImageInfo is an image of host files for a worker.
type ImageInfo struct {
	Tag    string // e.g. boxtax-worker:0123456789ab-fedcba987654
	Bytes  int64  // of its files, the boxtax binary included
	Files  int    // regular files
	Exists bool   // the engine has it already: nothing is built
}

// HostProgramList is the programs in a canonical order, without repeats:
// the same programs in another order give the same image.
func HostProgramList(programs []string) []string {
	list := slices.Clone(programs)
	slices.Sort(list)
	return slices.Compact(list)
}
