package command

import (
	"os"
	"syscall"

	"github.com/boxtax/boxtax/internal/workload"
)

// An image that serves (issue 38): cmd.server with image runs the image's
// program (its Entrypoint and Cmd, unless server is given) as the server in
// each environment, natively in the image's files by chroot, and the
// client outside on the host, where a real client stands. The server
// listens where the image says (its ExposedPorts, or port), the same port
// in every environment, so the client's {port} is that one.

// serverImage is cmd.server's image parameters.
type serverImage struct {
	name    string
	cfg     imageConfig
	port    int    // port: the port the image's program listens at
	workdir string // the image's WorkingDir (workdir)
}

// declareServerImage declares them.
func declareServerImage(d *workload.Decl, s *serverImage) {
	d.String(&s.name, "image", "", "a local Docker image whose program (its Entrypoint and Cmd, unless server is given) is the server, in its files in every environment (natively by chroot)")
	d.Int(&s.port, "port", 0, "the port the server listens at, the same in every environment (an image's: its first ExposedPorts); 0: the controller picks one and puts it in {port}")
	d.Range(0, 65535, "the controller picks one")
	d.String(&s.workdir, "workdir", "", "the directory the server runs in (an image's WorkingDir); default: the worker's temporary directory")
	declareImage(d, &s.cfg)
}

var _ workload.FixedPorter = (*serverConfig)(nil)

// FixedPort implements workload.FixedPorter: the port parameter.
func (s *serverConfig) FixedPort() int { return s.img.port }

// serverCmdSetup is how the server program starts: in an image, with the
// image's Env, as its User, in its WorkingDir.
func (s *serverConfig) serverCmdSetup(env *[]string, dir *string, attr *syscall.SysProcAttr) error {
	if s.img.workdir != "" {
		if err := os.MkdirAll(s.img.workdir, 0o755); err == nil {
			*dir = s.img.workdir
		}
	}
	if s.img.name == "" {
		return nil
	}
	*env = imageEnv(s.img.cfg.env, s.client.env, *dir)
	cred, err := imageCredential(s.img.cfg.user)
	if err != nil {
		return err
	}
	attr.Credential = cred
	return makeVolumes(s.img.cfg.volumes, cred)
}
