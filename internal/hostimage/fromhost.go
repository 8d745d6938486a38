package hostimage

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
)

// Labels boxtax puts on the images it builds; `boxtax clean --images`
// removes the images labelled LabelManaged=true.
const (
	LabelManaged      = "io.boxtax.managed"
	LabelVersion      = "io.boxtax.version"
	LabelHostPrograms = "io.boxtax.host-programs" // the programs, comma-separated
	LabelFilesHash    = "io.boxtax.files-hash"    // Set.Hash of the image's files
)

// FromHostOptions say how to make an image of host programs.
type FromHostOptions struct {
	Tag     string   // name[:tag]; empty: boxtax-<first program>:<files hash>
	Files   []string // extra host files and directories
	Version string   // boxtax's version, for the label
}

// FromHostResult is the image made (or found) for host programs.
type FromHostResult struct {
	Image   docker.Image
	Tag     string
	Hash    string // of the files (Set.Hash)
	Built   bool   // false when the engine had the tag with these files
	Summary Summary
}

// FromHost builds a local image holding the programs with what they need
// to run as on this host; bad input (a missing program, a file that is not
// an ELF executable, a library the loader would not find) is reported
// before the engine is asked. An image with the tag and the same files is
// used as it is; one with the tag and other files is replaced.
func FromHost(ctx context.Context, c *docker.Client, programs []string, o FromHostOptions) (FromHostResult, error) {
	set, err := Build(programs, Options{Files: o.Files})
	if err != nil {
		return FromHostResult{}, err
	}
	hash, err := set.Hash()
	if err != nil {
		return FromHostResult{}, err
	}
	tag := o.Tag
	if tag == "" {
		tag = DefaultTag(set.Programs()[0], hash)
	}
	if err := c.Ping(ctx); err != nil {
		return FromHostResult{}, err
	}
	version := o.Version
	if version == "" {
		version = "unknown"
	}
	opts := ImageOptions{
		Tag: tag,
		Labels: map[string]string{LabelManaged: "true", LabelVersion: version,
			LabelHostPrograms: strings.Join(set.Programs(), ","), LabelFilesHash: hash},
		Cmd: []string{set.Programs()[0]},
	}
	if img, err := c.ImageInspect(ctx, tag); err == nil && img.Config.Labels[LabelFilesHash] != hash {
		// The tag names other files (a user's --tag reused): build anew.
		if err := c.ImageRemove(ctx, tag, false); err != nil && !docker.IsNotFound(err) {
			return FromHostResult{}, fmt.Errorf("replacing the image %s, which holds other files: %w", tag, err)
		}
	}
	img, built, err := EnsureImage(ctx, c, set, opts)
	if err != nil {
		return FromHostResult{}, err
	}
	return FromHostResult{Image: img, Tag: tag, Hash: hash, Built: built, Summary: set.Summary()}, nil
}

var notInName = regexp.MustCompile(`[^a-z0-9._-]+`)

// DefaultTag names an image after its first program and its files' hash,
// e.g. boxtax-redis-server:0123456789ab.
func DefaultTag(program, hash string) string {
	name := strings.Trim(notInName.ReplaceAllString(strings.ToLower(filepath.Base(program)), "-"), "-._")
	if name == "" {
		name = "program"
	}
	return "boxtax-" + name + ":" + hash[:12]
}
