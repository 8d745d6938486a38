package workload

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// HostChecker is implemented by configs of workloads that start programs of the host
// (a real mosquitto, nginx, redis-server, stress-ng). CheckHost says before
// a study starts what is missing here and how to install it, so that a
// missing program refuses the study at once instead of failing its runs
// one by one.
type HostChecker interface {
	CheckHost() error
}

// NeedProgram checks that program (an absolute path, or a name looked up
// in PATH and the usual sbin and bin directories) is an executable here;
// the error names the Debian package that installs it.
func NeedProgram(program, debianPackage string) error {
	if FindProgram(program) != "" {
		return nil
	}
	return fmt.Errorf("needs %s, which is not installed here: apt-get install %s", program, debianPackage)
}

// ProgramDirs are looked in when a program is not on PATH (Debian puts
// tools in /usr/sbin, which a user's PATH may lack).
var ProgramDirs = []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"}

// FindProgram is the absolute path of program, an executable of this
// host: a path (relative to the current directory when not absolute), or
// a name looked up in PATH, then in ProgramDirs; "" when there is none.
func FindProgram(program string) string {
	if strings.Contains(program, "/") {
		if abs, err := filepath.Abs(program); err == nil && executable(abs) {
			return abs
		}
		return ""
	}
	if p, err := exec.LookPath(program); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			return abs
		}
	}
	for _, dir := range ProgramDirs {
		if p := filepath.Join(dir, program); executable(p) {
			return p
		}
	}
	return ""
}

// executable tells whether path is a regular file someone may execute.
func executable(path string) bool {
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// CheckHost configures w with p and, when its config is a HostChecker,
// checks this host for it; bad parameters are an error too.
func CheckHost(w Workload, p Params) error {
	hc, ok, err := ability[HostChecker](w, p)
	if !ok {
		return err
	}
	return hc.CheckHost()
}
