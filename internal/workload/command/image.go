package command

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/boxtax/boxtax/internal/workload"
)

// An image study (issue 38) runs the image's program as the image says:
// with its Env and as its User, in every environment. The controller reads
// them from the engine's image config before the plan is stored
// (study.ResolveImages) and gives them as parameters, so the worker runs
// the program alike in a container and natively (chroot into the image's
// files), and the stored study says how it ran.

// imageConfig is the image's side of cmd's parameters.
type imageConfig struct {
	id   string   // image_id: the id every environment runs
	env  []string // image_env: the image's Env, KEY=value
	user string   // image_user: the image's User (name or uid, :group)
	// volumes are the image's VOLUMEs: a container gets a fresh volume at
	// each, natively and in LXC the worker makes the directory when the
	// files lack it, so the program finds one at the same path everywhere.
	volumes []string
}

// declareImage declares the parameters of imageConfig.
func declareImage(d *workload.Decl, c *imageConfig) {
	d.String(&c.id, "image_id", "", "the image's id, which every environment runs (set from image by boxtax run)")
	stringsVar(d, &c.env, "image_env", "the image's environment, KEY=value (set from image by boxtax run); the program gets it, HOME and vars")
	d.String(&c.user, "image_user", "", "the user the image's program runs as, name or uid[:group] (set from image by boxtax run)")
	stringsVar(d, &c.volumes, "image_volumes", "the image's VOLUMEs: a directory at each path in every environment (set from image by boxtax run)")
}

// makeVolumes makes the image's volume directories that are missing,
// owned by the program's user.
func makeVolumes(paths []string, cred *syscall.Credential) error {
	for _, p := range paths {
		if _, err := os.Stat(p); err == nil {
			continue
		}
		if err := os.MkdirAll(p, 0o755); err != nil {
			return fmt.Errorf("the image's volume %s: %w", p, err)
		}
		if cred != nil {
			_ = os.Chown(p, int(cred.Uid), int(cred.Gid))
		}
	}
	return nil
}

// imageEnv is the program's environment in an image: the image's Env (a
// PATH of the usual directories when it has none), HOME (the image's, else
// home), and the vars asked for.
func imageEnv(image []string, vars map[string]string, home string) []string {
	var env []string
	hasPath, hasHome := false, false
	for _, kv := range image {
		hasPath = hasPath || strings.HasPrefix(kv, "PATH=")
		hasHome = hasHome || strings.HasPrefix(kv, "HOME=")
		env = append(env, kv)
	}
	if !hasPath {
		env = append(env, "PATH="+strings.Join(workload.ProgramDirs, ":"))
	}
	if !hasHome {
		env = append(env, "HOME="+home)
	}
	for k, v := range vars {
		env = append(env, k+"="+v)
	}
	return env
}

// imageCredential is the uid and gid the image's User names, read from
// /etc/passwd and /etc/group of the root the worker runs in (the image's,
// in a container and natively); nil for root or no User.
func imageCredential(user string) (*syscall.Credential, error) {
	if user == "" || user == "root" || user == "0" || user == "0:0" || user == "root:root" {
		return nil, nil
	}
	name, group, _ := strings.Cut(user, ":")
	uid, gid, err := lookupID("/etc/passwd", name, true)
	if err != nil {
		return nil, fmt.Errorf("the image's user %q: %w", user, err)
	}
	if group != "" {
		if gid, _, err = lookupID("/etc/group", group, false); err != nil {
			return nil, fmt.Errorf("the image's user %q: %w", user, err)
		}
	}
	return &syscall.Credential{Uid: uid, Gid: gid, Groups: []uint32{}}, nil
}

// lookupID finds name (or a number) in a passwd or group file: its id,
// and for passwd its primary group.
func lookupID(file, name string, passwd bool) (id, gid uint32, err error) {
	if n, err := strconv.ParseUint(name, 10, 32); err == nil && !passwd {
		return uint32(n), 0, nil
	}
	f, err := os.Open(file)
	if err != nil {
		if n, perr := strconv.ParseUint(name, 10, 32); perr == nil {
			return uint32(n), uint32(n), nil
		}
		return 0, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Split(sc.Text(), ":")
		if len(fields) < 4 || (fields[0] != name && fields[2] != name) {
			continue
		}
		u, err1 := strconv.ParseUint(fields[2], 10, 32)
		g, err2 := strconv.ParseUint(fields[3], 10, 32)
		if err1 != nil || (passwd && err2 != nil) {
			continue
		}
		return uint32(u), uint32(g), nil
	}
	if n, err := strconv.ParseUint(name, 10, 32); err == nil {
		return uint32(n), uint32(n), nil
	}
	return 0, 0, fmt.Errorf("%s has no %s", file, name)
}

// imageProgram is the program name found on the PATH of the image's
// environment env (the worker's own PATH differs between engines: Docker
// gives it the image's, LXC its own), or name as it is when not found
// there or when it is a path.
func imageProgram(name string, env []string) string {
	if strings.Contains(name, "/") {
		return name
	}
	for _, kv := range env {
		path, ok := strings.CutPrefix(kv, "PATH=")
		if !ok {
			continue
		}
		for _, dir := range filepath.SplitList(path) {
			p := filepath.Join(dir, name)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
				return p
			}
		}
	}
	return name
}

// The cmd workloads may run an image's program.
var (
	_ workload.ImageRunner = Cmd
	_ workload.ImageRunner = Server
)

// ImageOf implements workload.ImageRunner: the image parameter.
func (cmdWorkload) ImageOf(p workload.Params) string { return imageParam(p) }

// ImageOf implements workload.ImageRunner: the image parameter.
func (serverWorkload) ImageOf(p workload.Params) string { return imageParam(p) }

func imageParam(p workload.Params) string {
	name, _ := p["image"].(string)
	return name
}

// UseImage implements workload.ImageRunner: the image's id, how its
// program runs (its Env, User, Volumes and WorkingDir), and its program
// (Entrypoint and Cmd) in cmd unless the study gives one.
func (cmdWorkload) UseImage(p workload.Params, img workload.Image, factorSets func(string) bool) error {
	return useImage(p, img, "cmd", "cmd", factorSets)
}

// UseImage implements workload.ImageRunner: as cmd's, the program going
// in server, and the port the image exposes.
func (serverWorkload) UseImage(p workload.Params, img workload.Image, factorSets func(string) bool) error {
	return useImage(p, img, "cmd.server", "server", factorSets)
}

// useImage sets in p, the parameters of the workload named wl, what img
// says; program is the parameter the image's program goes in.
func useImage(p workload.Params, img workload.Image, wl, program string, factorSets func(string) bool) error {
	if id, _ := p["image_id"].(string); id != "" && id != img.ID {
		return fmt.Errorf("workload %s: image %s is now %s, but the study names %s: remove image_id to run the image as it is now", wl, img.Name, img.ID, id)
	}
	p["image_id"] = img.ID
	if program == "server" {
		if err := exposedPort(p, img); err != nil {
			return err
		}
	}
	if _, given := p[program]; !given && !factorSets(program) {
		argv := append(slices.Clone(img.Entrypoint), img.Cmd...)
		if len(argv) == 0 {
			return fmt.Errorf("image %s has neither an Entrypoint nor a Cmd, so there is no program of its own to run: name one with --cmd (e.g. --image %s --cmd 'gzip -c /etc/os-release'), or %s: in the study file", img.Name, img.Name, program)
		}
		p[program] = anyList(argv)
	}
	if len(img.Env) > 0 {
		p["image_env"] = anyList(img.Env)
	}
	if img.User != "" {
		p["image_user"] = img.User
	}
	if len(img.Volumes) > 0 {
		p["image_volumes"] = anyList(img.Volumes)
	}
	if _, given := p["workdir"]; !given && img.WorkingDir != "" {
		p["workdir"] = img.WorkingDir
	}
	return nil
}

// exposedPort sets cmd.server's port to the image's first TCP port
// (ExposedPorts) unless the study gives one; an image that exposes none
// needs the study to say.
func exposedPort(p workload.Params, img workload.Image) error {
	if _, given := p["port"]; given {
		return nil
	}
	for _, ep := range img.Ports {
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
	return fmt.Errorf("image %s exposes no TCP port (EXPOSE), so boxtax does not know where its server listens: give port: in the study file (cmd.server), or EXPOSE it in the image", img.Name)
}
