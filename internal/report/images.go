package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/boxtax/boxtax/internal/store"
)

// ImageRun says which image an environment of an image study ran and how
// (issue 38): natively "the image's files, chroot", in a container the
// image itself; the id is the one every environment must have run.
type ImageRun struct {
	Env   string `json:"env"`
	Image string `json:"image"`
	ID    string `json:"image_id"`
	// Files is how the files were run natively: "the image's files, chroot".
	Files string `json:"files,omitempty"`
}

// imageRuns are the images the study's runs ran, one per environment,
// in environment order.
func imageRuns(runs []store.Run) []ImageRun {
	seen := map[string]ImageRun{}
	for _, run := range runs {
		s := run.Settings
		if s["image_id"] == "" || run.Status != store.RunOK {
			continue
		}
		if _, ok := seen[run.Env]; ok {
			continue
		}
		if s["files"] == "" && s["container_id"] == "" {
			continue
		}
		seen[run.Env] = ImageRun{Env: run.Env, Image: s["image"], ID: s["image_id"], Files: s["files"]}
	}
	if len(seen) == 0 || !anyFiles(seen) {
		return nil
	}
	out := make([]ImageRun, 0, len(seen))
	for _, r := range seen {
		out = append(out, r)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Env < out[j].Env })
	return out
}

// anyFiles tells whether an image was run natively (an image study), not
// only in containers (boxtax's own worker images).
func anyFiles(m map[string]ImageRun) bool {
	for _, r := range m {
		if r.Files != "" {
			return true
		}
	}
	return false
}

// ImagesLine is the report's line on the images an image study ran, ""
// for any other study: "image NAME (ID) in native (the image's files,
// chroot), docker-bridge".
func (r *Report) ImagesLine() string {
	if len(r.Study.Images) == 0 {
		return ""
	}
	byImage := map[string][]string{}
	var order []string
	for _, im := range r.Study.Images {
		key := fmt.Sprintf("%s (%s)", im.Image, shortImageID(im.ID))
		if _, ok := byImage[key]; !ok {
			order = append(order, key)
		}
		where := im.Env
		if im.Files != "" {
			where += ": " + im.Files
		}
		byImage[key] = append(byImage[key], where)
	}
	var parts []string
	for _, k := range order {
		parts = append(parts, k+" in "+strings.Join(byImage[k], ", "))
	}
	return "image " + strings.Join(parts, "; image ")
}

// shortImageID is an image id as docker image ls shows it.
func shortImageID(id string) string {
	id = strings.TrimPrefix(id, "sha256:")
	if len(id) > 12 {
		return id[:12]
	}
	return id
}
