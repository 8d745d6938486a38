package hostimage

import (
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/lazyre"
)

// imageIDLike matches what an engine reads as an image ID or a prefix of
// one (0123456789ab, sha256:0123...) before it reads it as a name.
var imageIDLike = lazyre.New(`^(sha256:)?[0-9a-f]+$`)

// checkTag refuses a --tag that an engine would resolve to an image by its
// ID or digest rather than by name: FromHost replaces its own image under
// the tag, and such a tag named another image, which it then deleted
// (issue 25, item 7).
func checkTag(tag string) error {
	switch {
	case imageIDLike.Get().MatchString(tag):
		return &InputError{fmt.Errorf("--tag %s looks like an image ID, which names an image that may be stored under another name: "+
			"give a name, e.g. --tag my-tool:1", tag)}
	case strings.Contains(tag, "@"):
		return &InputError{fmt.Errorf("--tag %s is a digest reference, not a name: give a name, e.g. --tag my-tool:1", tag)}
	}
	return nil
}

// namedAs reports whether the engine holds img under tag itself, not only
// found it by tag (an ID prefix, a digest): only then is the image
// FromHost's to replace.
func namedAs(img docker.Image, tag string) bool {
	want := normalTag(tag)
	for _, t := range img.RepoTags {
		if normalTag(t) == want {
			return true
		}
	}
	return false
}

// normalTag is a name[:tag] as an engine lists it: with :latest when it
// has no tag, without the default registry's prefixes (Docker's
// docker.io/library/, Podman's localhost/).
func normalTag(t string) string {
	for _, p := range []string{"docker.io/library/", "docker.io/", "localhost/"} {
		t = strings.TrimPrefix(t, p)
	}
	if i := strings.LastIndex(t, ":"); i < 0 || strings.Contains(t[i:], "/") {
		t += ":latest"
	}
	return t
}
