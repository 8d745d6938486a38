package hostimage

import (
	"slices"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/lazyre"
)

// LabelName records, on an image boxtax makes, the name it gave the image
// (e.g. boxtax-worker:0123456789ab, or the --tag of image from-host). An
// image built FROM it inherits the label but not the name: a tag that is
// not the recorded name is the user's, whatever the labels say.
const LabelName = "io.boxtax.name"

// Messages boxtax gives docker import, which the engine keeps as the
// image's comment; an image built or committed from it has its own.
const (
	MessageWorker       = "boxtax worker image: the boxtax binary at /boxtax"
	MessageHostPrograms = "boxtax image of host programs"
)

// legacyName is how boxtax named its images before it recorded the name
// (LabelName): boxtax-worker:HASH, boxtax-worker:HASH-HASH (with host
// programs) and boxtax-PROGRAM:HASH (image from-host without --tag).
var legacyName = lazyre.New(`^boxtax-[a-z0-9._-]+:[0-9a-f]{12}(-[0-9a-f]{12})?$`)

// OwnTags are the tags of an image that boxtax gave it and may take back:
// the image must be one boxtax made (LabelManaged=true, and its comment,
// where the engine reports it, one of boxtax's import messages, so not an
// image built FROM boxtax's), and the tag the name boxtax recorded
// (LabelName; older images: the legacyName pattern). Tags the user added
// (docker tag) are not among them. Podman's localhost/ prefix is dropped.
func OwnTags(img docker.Image) []string {
	if img.Config.Labels[LabelManaged] != "true" {
		return nil
	}
	if img.Comment != nil && *img.Comment != MessageWorker && *img.Comment != MessageHostPrograms {
		return nil // built or committed from a boxtax image: the user's
	}
	var own []string
	for _, t := range img.RepoTags {
		if namedByBoxtax(normalTag(t), img.Config.Labels) {
			own = append(own, t)
		}
	}
	return own
}

// namedByBoxtax says whether tag is the name boxtax recorded in labels.
func namedByBoxtax(tag string, labels map[string]string) bool {
	if name, ok := labels[LabelName]; ok {
		return tag == normalTag(name)
	}
	return legacyName.Get().MatchString(tag)
}

// OtherTags are the image's tags that are not among own: the user's.
func OtherTags(img docker.Image, own []string) []string {
	var other []string
	for _, t := range img.RepoTags {
		if t != "<none>:<none>" && !slices.Contains(own, t) {
			other = append(other, t)
		}
	}
	return other
}
