package podman

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"os/user"
	"strconv"
	"strings"
	"syscall"
)

// rootlessUser is the user podman-rootless runs Podman as: boxtax's own
// user when boxtax does not run as root (nil), else BOXTAX_PODMAN_USER or
// the user who ran sudo (SUDO_USER), who needs subordinate id ranges in
// /etc/subuid and /etc/subgid for Podman's user namespace. getenv is the
// caller's environment (Options.Getenv).
func rootlessUser(getenv func(string) string) (*podmanUser, error) {
	if os.Geteuid() != 0 {
		return nil, nil
	}
	name, from := getenv("BOXTAX_PODMAN_USER"), "BOXTAX_PODMAN_USER"
	if name == "" {
		name, from = getenv("SUDO_USER"), "SUDO_USER"
	}
	if name == "" || name == "root" {
		return nil, fmt.Errorf("rootless Podman runs as an ordinary user and boxtax runs as root: " +
			"set BOXTAX_PODMAN_USER=NAME (a user with ranges in /etc/subuid and /etc/subgid), or run boxtax as that user")
	}
	u, err := user.Lookup(name)
	if err != nil {
		return nil, fmt.Errorf("%s=%s: %w", from, name, err)
	}
	uid, _ := strconv.Atoi(u.Uid)
	gid, _ := strconv.Atoi(u.Gid)
	if uid == 0 {
		return nil, fmt.Errorf("%s=%s is root: rootless Podman needs an ordinary user", from, name)
	}
	for _, f := range []string{"/etc/subuid", "/etc/subgid"} {
		if !hasSubordinateIDs(f, name, u.Uid) {
			return nil, fmt.Errorf("%s has no subordinate ids in %s, which rootless Podman needs: "+
				"usermod --add-subuids 100000-165535 --add-subgids 100000-165535 %s", name, f, name)
		}
	}
	return &podmanUser{name: name, uid: uid, gid: gid, home: u.HomeDir}, nil
}

// hasSubordinateIDs tells whether file (/etc/subuid, /etc/subgid) gives
// the user, by name or id, a range.
func hasSubordinateIDs(file, name, uid string) bool {
	f, err := os.Open(file)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		owner, _, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if ok && (owner == name || owner == uid) {
			return true
		}
	}
	return false
}

// asPodmanUser makes cmd run as the user, with their home and runtime
// directory (made, as a login would, when missing), and gives them dir,
// where the private socket goes; the PATH it gets is the caller's (getenv).
func asPodmanUser(cmd *exec.Cmd, u *podmanUser, dir string, getenv func(string) string) error {
	run := u.runtimeDir()
	if _, err := os.Stat(run); os.IsNotExist(err) {
		if err := os.MkdirAll(run, 0o700); err != nil {
			return fmt.Errorf("making %s's runtime directory: %w", u.name, err)
		}
		if err := os.Chown(run, u.uid, u.gid); err != nil {
			return err
		}
	}
	if err := os.Chown(dir, u.uid, u.gid); err != nil {
		return err
	}
	cmd.SysProcAttr.Credential = &syscall.Credential{Uid: uint32(u.uid), Gid: uint32(u.gid)}
	cmd.Dir = u.home
	path := getenv("PATH")
	if path == "" {
		path = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
	}
	cmd.Env = []string{"PATH=" + path, "HOME=" + u.home, "USER=" + u.name, "LOGNAME=" + u.name, "XDG_RUNTIME_DIR=" + run}
	return nil
}
