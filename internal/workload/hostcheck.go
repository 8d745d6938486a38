package workload

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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
	if filepath.IsAbs(program) {
		if st, err := os.Stat(program); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return nil
		}
		return fmt.Errorf("needs %s, which is not installed here: apt-get install %s", program, debianPackage)
	}
	if _, err := exec.LookPath(program); err == nil {
		return nil
	}
	for _, dir := range []string{"/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"} {
		if st, err := os.Stat(filepath.Join(dir, program)); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return nil
		}
	}
	return fmt.Errorf("needs %s, which is not installed here: apt-get install %s", program, debianPackage)
}

// CheckHost configures w with p and, when its config is a HostChecker,
// checks this host for it; bad parameters are an error too.
func CheckHost(w Workload, p Params) error {
	c, err := Configure(w, p)
	if err != nil {
		return err
	}
	if hc, ok := c.(HostChecker); ok {
		return hc.CheckHost()
	}
	return nil
}
