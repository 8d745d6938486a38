package docker

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/boxtax/boxtax/internal/docker"
	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// CleanImages says, a line each, what happens to the images boxtax built
// (worker images, with or without host programs, and `boxtax image
// from-host` images) on the engine behind c, named engine in the lines (""
// for Docker). With remove it removes them, tag by tag, a line an image
// with its size, then the count and the space freed; without, one line
// counts them and their size and says how to remove them.
//
// An image is boxtax's when it carries io.boxtax.managed=true and a name
// boxtax gave it (hostimage.OwnTags): an image built FROM a boxtax image
// inherits the label but not the name, and is never touched. Of an image
// the user tagged as well, only boxtax's tag goes; an image a running
// boxtax uses (HeldImages) stays, and so does one a container still uses,
// with an error naming it.
func CleanImages(ctx context.Context, c *docker.Client, engine string, remove bool) ([]string, error) {
	return cleanLabelledImages(ctx, c, map[string]string{env.LabelManaged: "true"}, engine, remove)
}

// ownImage is an image boxtax built, with the tags it gave it and those
// the user added.
type ownImage struct {
	docker.Image
	own, others []string
}

// cleanLabelledImages is CleanImages for the images that carry every one
// of labels (tests add their own, as other boxtax runs share the daemon).
func cleanLabelledImages(ctx context.Context, c *docker.Client, labels map[string]string, engine string, remove bool) ([]string, error) {
	mine, notMine, err := ownImages(ctx, c, labels)
	if err != nil {
		return nil, err
	}
	var total int64
	for _, img := range mine {
		total += img.SizeBytes
	}
	if !remove {
		if len(mine) == 0 {
			return nil, nil
		}
		return []string{fmt.Sprintf("%skept %d image(s) built by boxtax (%s): boxtax clean --images removes them", engine, len(mine), FormatBytes(total))}, nil
	}
	held, err := env.HeldImages()
	if err != nil {
		return nil, fmt.Errorf("reading which images running boxtax processes use: %w", err)
	}
	var lines []string
	var errs []error
	removed, freed := 0, int64(0)
	for _, img := range mine {
		if pid, ok := held[img.ID]; ok {
			lines = append(lines, fmt.Sprintf("%skept image %s: a running boxtax (pid %d) uses it", engine, img.own[0], pid))
			continue
		}
		gone := true
		for _, ref := range img.own {
			err := c.ImageRemove(ctx, ref, false)
			switch {
			case err == nil, docker.IsNotFound(err): // gone meanwhile
			default:
				gone = false
				errs = append(errs, fmt.Errorf("removing image %s: %w", ref, err))
			}
		}
		switch {
		case !gone:
		case len(img.others) > 0:
			lines = append(lines, fmt.Sprintf("%suntagged %s: the image stays, as %s (a name that is not boxtax's)", engine, strings.Join(img.own, ", "), strings.Join(img.others, ", ")))
		default:
			removed++
			freed += img.SizeBytes
			lines = append(lines, fmt.Sprintf("%sremoved image %s (%s)", engine, img.own[0], FormatBytes(img.SizeBytes)))
		}
	}
	lines = append(lines, fmt.Sprintf("%sremoved %d image(s) built by boxtax, %s freed", engine, removed, FormatBytes(freed)))
	if notMine > 0 {
		lines = append(lines, fmt.Sprintf("%sleft %d image(s) that carry boxtax's labels under a name boxtax did not give them (built FROM a boxtax image, or tagged by hand): they are yours", engine, notMine))
	}
	return lines, errors.Join(errs...)
}

// ownImages are the images with the labels that boxtax built, with their
// tags (hostimage.OwnTags); notMine counts the others, which inherited the
// labels.
func ownImages(ctx context.Context, c *docker.Client, labels map[string]string) (mine []ownImage, notMine int, err error) {
	list, err := c.ImageList(ctx, labels)
	if err != nil {
		return nil, 0, fmt.Errorf("finding boxtax images: %w", err)
	}
	for _, s := range list {
		img, err := c.ImageInspect(ctx, s.ID)
		if docker.IsNotFound(err) {
			continue // gone meanwhile
		} else if err != nil {
			return nil, 0, fmt.Errorf("finding boxtax images: %w", err)
		}
		own := hostimage.OwnTags(img)
		if len(own) == 0 {
			notMine++
			continue
		}
		if img.SizeBytes == 0 {
			img.SizeBytes = s.SizeBytes
		}
		mine = append(mine, ownImage{Image: img, own: own, others: hostimage.OtherTags(img, own)})
	}
	return mine, notMine, nil
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
