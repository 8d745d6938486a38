package env

import (
	"context"
	"errors"
	"fmt"

	"github.com/boxtax/boxtax/internal/docker"
)

// cleanImages says, a line each, what happens to the images boxtax built
// (labelled io.boxtax.managed=true: worker images, with or without host
// programs, and `boxtax image from-host` images) on the engine behind c,
// named engine in the lines ("" for Docker). With remove it removes them,
// tag by tag, a line an image with its size, then the count and the space
// freed; without, one line counts them and their size and says how to
// remove them. Only images with boxtax's label are touched, never
// another's. An image a container still uses stays, with an error naming it.
func cleanImages(ctx context.Context, c *docker.Client, engine string, remove bool) ([]string, error) {
	return cleanLabelledImages(ctx, c, map[string]string{labelManaged: "true"}, engine, remove)
}

// cleanLabelledImages is cleanImages for the images that carry every one
// of labels (tests add their own, as other boxtax runs share the daemon).
func cleanLabelledImages(ctx context.Context, c *docker.Client, labels map[string]string, engine string, remove bool) ([]string, error) {
	list, err := c.ImageList(ctx, labels)
	if err != nil {
		return nil, fmt.Errorf("finding boxtax images: %w", err)
	}
	var total int64
	for _, img := range list {
		total += img.SizeBytes
	}
	if !remove {
		if len(list) == 0 {
			return nil, nil
		}
		return []string{fmt.Sprintf("%skept %d image(s) built by boxtax (%s): boxtax clean --images removes them", engine, len(list), FormatBytes(total))}, nil
	}
	var lines []string
	var errs []error
	removed, freed := 0, int64(0)
	for _, img := range list {
		refs := img.RepoTags
		if len(refs) == 0 || len(refs) == 1 && refs[0] == "<none>:<none>" {
			refs = []string{img.ID}
		}
		gone := true
		for _, ref := range refs {
			err := c.ImageRemove(ctx, ref, false)
			switch {
			case err == nil, docker.IsNotFound(err): // gone meanwhile
			default:
				gone = false
				errs = append(errs, fmt.Errorf("removing image %s: %w", ref, err))
			}
		}
		if gone {
			removed++
			freed += img.SizeBytes
			lines = append(lines, fmt.Sprintf("%sremoved image %s (%s)", engine, refs[0], FormatBytes(img.SizeBytes)))
		}
	}
	lines = append(lines, fmt.Sprintf("%sremoved %d image(s) built by boxtax, %s freed", engine, removed, FormatBytes(freed)))
	return lines, errors.Join(errs...)
}

// FormatBytes writes a size in bytes as people read it: 23.4 MB (powers
// of 1000, as docker images shows sizes).
func FormatBytes(n int64) string {
	const unit = 1000
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	div, exp := int64(unit), 0
	for m := n / unit; m >= unit && exp < 4; m /= unit {
		div *= unit
		exp++
	}
	return fmt.Sprintf("%.1f %cB", float64(n)/float64(div), "kMGTP"[exp])
}
