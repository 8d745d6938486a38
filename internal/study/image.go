package study

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/boxtax/boxtax/internal/env"
)

// An image study (issue 38): the cmd workload with an image runs the
// image's own program, or the --cmd given, in the image's files in every
// environment; natively the image's root filesystem, unpacked, entered by
// chroot. ResolveImages reads each image's config from the engine once,
// before the plan is stored, so the stored study names the image id every
// run must have and says how the program runs.

// imageWorkloads are the workloads an image runs the program of.
var imageWorkloads = []string{"cmd", "cmd.server"}

// ResolveImages fills in, for each workload that names an image, the
// image's id and how its program runs (its Env, User and WorkingDir), and
// its program (Entrypoint and Cmd) when the study gives no command. It
// refuses an image for another architecture and one with no program when
// none is given. o chooses the engine.
func (s *Spec) ResolveImages(ctx context.Context, o env.Options) error {
	for i, w := range s.Workloads {
		name, _ := w.Params["image"].(string)
		if name == "" || !slices.Contains(imageWorkloads, w.Name) {
			continue
		}
		cfg, err := env.InspectImage(ctx, name, o)
		if err != nil {
			return fmt.Errorf("workload %s: %w", w.Name, err)
		}
		p := w.Params
		if id, _ := p["image_id"].(string); id != "" && id != cfg.ID {
			return fmt.Errorf("workload %s: image %s is now %s, but the study names %s: remove image_id to run the image as it is now", w.Name, name, cfg.ID, id)
		}
		p["image_id"] = cfg.ID
		program := "cmd" // the parameter the image's program goes in
		if w.Name == "cmd.server" {
			program = "server"
			if err := exposedPort(p, name, cfg); err != nil {
				return err
			}
		}
		if _, given := p[program]; !given && !s.factorSets(program) {
			argv := append(slices.Clone(cfg.Entrypoint), cfg.Cmd...)
			if len(argv) == 0 {
				return fmt.Errorf("image %s has neither an Entrypoint nor a Cmd, so there is no program of its own to run: name one with --cmd (e.g. --image %s --cmd 'gzip -c /etc/os-release'), or %s: in the study file", name, name, program)
			}
			p[program] = anyList(argv)
		}
		if len(cfg.Env) > 0 {
			p["image_env"] = anyList(cfg.Env)
		}
		if cfg.User != "" {
			p["image_user"] = cfg.User
		}
		if len(cfg.Volumes) > 0 {
			p["image_volumes"] = anyList(cfg.Volumes)
		}
		if _, given := p["workdir"]; !given && cfg.WorkingDir != "" {
			p["workdir"] = cfg.WorkingDir
		}
		s.Workloads[i].Params = p
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

// anyList is a list of strings as a YAML file gives it.
func anyList(v []string) []any {
	out := make([]any, len(v))
	for i, s := range v {
		out[i] = s
	}
	return out
}

// exposedPort sets cmd.server's port to the image's first TCP port
// (ExposedPorts) unless the study gives one; an image that exposes none
// needs the study to say.
func exposedPort(p map[string]any, name string, cfg env.ImageConfig) error {
	if _, given := p["port"]; given {
		return nil
	}
	for _, ep := range cfg.Ports {
		port, proto, _ := strings.Cut(ep, "/")
		if proto != "" && proto != "tcp" {
			continue
		}
		n, err := strconv.Atoi(port)
		if err == nil && n > 0 {
			p["port"] = n
			return nil
		}
	}
	if server, _ := p["server"].(string); strings.Contains(server, "{port}") {
		return nil
	}
	return fmt.Errorf("image %s exposes no TCP port (EXPOSE), so boxtax does not know where its server listens: give port: in the study file (cmd.server), or EXPOSE it in the image", name)
}
