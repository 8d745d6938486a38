package hostimage

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/lazyre"
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
// used as it is; one that boxtax made with other files is replaced; one
// boxtax did not make (no io.boxtax.managed=true label) is never touched:
// FromHost refuses with a *TagInUseError.
func FromHost(ctx context.Context, c *docker.Client, programs []string, o FromHostOptions) (FromHostResult, error) {
	if o.Tag != "" {
		if err := checkTag(o.Tag); err != nil {
			return FromHostResult{}, err
		}
	}
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
	img, err := c.ImageInspect(ctx, tag)
	switch {
	case docker.IsNotFound(err):
	case err != nil:
		return FromHostResult{}, fmt.Errorf("looking for the image %s: %w", tag, err)
	case !namedAs(img, tag):
		return FromHostResult{}, &InputError{fmt.Errorf("--tag %s finds the image %s, which is named %s, not %s: boxtax replaces only its own image under the very name given; choose another --tag",
			tag, shortID(img.ID), strings.Join(img.RepoTags, ", "), tag)}
	case img.Config.Labels[LabelManaged] != "true":
		return FromHostResult{}, &TagInUseError{Tag: tag, ID: img.ID}
	case !slices.ContainsFunc(OwnTags(img), func(t string) bool { return normalTag(t) == normalTag(tag) }):
		// Built FROM a boxtax image (it inherits the labels) or tagged so
		// by the user: not boxtax's to replace.
		return FromHostResult{}, &TagInUseError{Tag: tag, ID: img.ID, Derived: true}
	case img.Config.Labels[LabelFilesHash] != hash:
		// boxtax's own image of other files under this tag (a --tag
		// reused): replace it. Removing one of several tags only untags.
		if err := c.ImageRemove(ctx, tag, false); err != nil && !docker.IsNotFound(err) {
			return FromHostResult{}, fmt.Errorf("replacing boxtax's image %s, which holds other files: %w", tag, err)
		}
	}
	img, built, err := EnsureImage(ctx, c, set, opts)
	if err != nil {
		return FromHostResult{}, err
	}
	return FromHostResult{Image: img, Tag: tag, Hash: hash, Built: built, Summary: set.Summary()}, nil
}

// TagInUseError says that the tag names an image boxtax did not make,
// which it will neither replace nor remove.
type TagInUseError struct {
	Tag, ID string
	Derived bool // it carries boxtax's labels, inherited from a boxtax image it was built from
}

func (e *TagInUseError) Error() string {
	if e.Derived {
		return fmt.Sprintf("the image %s (%s) exists and was not made by boxtax under this name (it carries boxtax's labels, as an image built FROM a boxtax image or tagged by hand does): "+
			"boxtax leaves it alone; choose another --tag, or remove it yourself first (docker rmi %s)", e.Tag, shortID(e.ID), e.Tag)
	}
	return fmt.Sprintf("the image %s (%s) exists and was not made by boxtax (it has no %s=true label): "+
		"boxtax leaves it alone; choose another --tag, or remove it yourself first (docker rmi %s)", e.Tag, shortID(e.ID), LabelManaged, e.Tag)
}

// shortID is an image ID as docker images shows it: 12 hex digits.
func shortID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	return id
}

var notInName = lazyre.New(`[^a-z0-9._-]+`)

// DefaultTag names an image after its first program and its files' hash,
// e.g. boxtax-redis-server:0123456789ab.
func DefaultTag(program, hash string) string {
	name := strings.Trim(notInName.Get().ReplaceAllString(strings.ToLower(filepath.Base(program)), "-"), "-._")
	if name == "" {
		name = "program"
	}
	return "boxtax-" + name + ":" + hash[:12]
}
