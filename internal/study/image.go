package study

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/env/engines"
	"github.com/boxtax/boxtax/internal/workload"
)

// An image study (issue 38): a workload with an image (the cmd workloads)
// runs the image's own program, or the --cmd given, in the image's files
// in every environment; natively the image's root filesystem, unpacked,
// entered by chroot. ResolveImages reads each image's config from the engine once,
// before the plan is stored, so the stored study names the image id every
// run must have and says how the program runs.

// ResolveImages fills in, for each workload that names an image (a
// workload.ImageRunner), what the image says of its program: its id, how
// it runs, and the program when the study gives none. It refuses an image
// for another architecture. o chooses the engine.
func (s *Spec) ResolveImages(ctx context.Context, o env.Options) error {
	for _, w := range s.Workloads {
		wl, err := workload.Lookup(w.Name)
		if err != nil {
			continue // Validate says so
		}
		ir, ok := wl.(workload.ImageRunner)
		if !ok || ir.ImageOf(w.Params) == "" {
			continue
		}
		name := ir.ImageOf(w.Params)
		cfg, err := engines.InspectImage(ctx, name, o)
		if err != nil {
			return fmt.Errorf("workload %s: %w", w.Name, err)
		}
		img := workload.Image{Name: name, ID: cfg.ID, Entrypoint: cfg.Entrypoint, Cmd: cfg.Cmd, Env: cfg.Env, Ports: cfg.Ports,
			Volumes: cfg.Volumes, User: cfg.User, WorkingDir: cfg.WorkingDir}
		if err := ir.UseImage(w.Params, img, s.factorSets); err != nil {
			return err
		}
		s.planNotes = append(s.planNotes, imageNote(name, cfg))
	}
	return nil
}

// factorSets tells whether a factor of the study sets the parameter.
func (s *Spec) factorSets(param string) bool {
	return slices.ContainsFunc(s.Factors, func(f Factor) bool { return f.Param == param })
}

// imageNote says what an image study runs, under the plan line.
func imageNote(name string, cfg env.ImageConfig) string {
	id := strings.TrimPrefix(cfg.ID, "sha256:")
	if len(id) > 12 {
		id = id[:12]
	}
	var how []string
	if cfg.User != "" {
		how = append(how, "user "+cfg.User)
	}
	if cfg.WorkingDir != "" {
		how = append(how, "in "+cfg.WorkingDir)
	}
	if len(cfg.Volumes) > 0 {
		how = append(how, "volumes "+strings.Join(cfg.Volumes, " "))
	}
	line := fmt.Sprintf("image %s (%s, %.1f MB) in every environment; native: %s", name, id, float64(cfg.SizeBytes)/1e6, env.NativeImageFiles)
	if len(how) > 0 {
		line += " (" + strings.Join(how, ", ") + ")"
	}
	return line
}
