package study

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/termtext"
	"github.com/boxtax/boxtax/internal/workload"
)

// imageLine says which image of this host's files some environments run.
type imageLine struct {
	envs []string
	text string
}

// imageLines say, before anything is built, which images of this host's
// files the study's containers run, how big each is and whether it is
// built now or was made before (issue 27: each --cmd left a 20-35 MB
// image behind without saying so). Environments that build none (native,
// the user's --image) say nothing.
func imageLines(ctx context.Context, spec *Spec, envs map[string]env.Environment) ([]imageLine, error) {
	cells, err := spec.Cells()
	if err != nil {
		return nil, err
	}
	type image struct {
		info env.ImageInfo
		envs []string
	}
	var order []string
	byTag := map[string]*image{}
	asked := map[string]bool{}
	for _, c := range cells {
		teller, ok := envs[c.Env].(env.ImageTeller)
		if !ok {
			continue
		}
		wl, err := workload.Lookup(c.Workload)
		if err != nil {
			return nil, err
		}
		ws, err := workerSpecOf(wl, c.Workload, c.Params)
		if err != nil {
			return nil, err
		}
		key := strings.Join([]string{c.Env, strings.Join(ws.HostPrograms, ","), strings.Join(ws.HostFiles, ",")}, "\x00")
		if asked[key] {
			continue
		}
		asked[key] = true
		info, ok, err := teller.ImageFor(ctx, ws)
		if err != nil {
			return nil, err
		}
		if !ok {
			continue
		}
		img := byTag[info.Tag]
		if img == nil {
			img = &image{info: info}
			byTag[info.Tag] = img
			order = append(order, info.Tag)
		}
		if !slices.Contains(img.envs, c.Env) {
			img.envs = append(img.envs, c.Env)
		}
	}
	var lines []imageLine
	for _, tag := range order {
		img := byTag[tag]
		size := fmt.Sprintf("%s in %d files of this host", termtext.Size(img.info.Bytes), img.info.Files)
		text := fmt.Sprintf("%s run the image %s (%s), built now for this study; boxtax clean --images removes it", strings.Join(img.envs, ", "), tag, size)
		if img.info.Exists {
			text = fmt.Sprintf("%s run the image %s (%s), made before from the same files", strings.Join(img.envs, ", "), tag, size)
		}
		lines = append(lines, imageLine{envs: img.envs, text: text})
	}
	return lines, nil
}

// sayImages logs the lines of the images env runs not said yet (all of
// them when env is ""), so that an image is announced as it is built.
func (p Process) sayImages(lines []imageLine, env string) {
	for i, l := range lines {
		if l.text != "" && (env == "" || slices.Contains(l.envs, env)) {
			p.logf("%s\n", l.text)
			lines[i].text = ""
		}
	}
}
