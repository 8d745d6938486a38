package env

import (
	"fmt"
	"os"
	"path/filepath"
	"syscall"
)

// procSuperMagic is the filesystem type statfs reports for a proc mount.
const procSuperMagic = 0x9fa0

// mountImageProc mounts a proc filesystem at root/proc unless one is
// there: the worker and many programs read /proc (their threads, their
// limits), which chroot alone does not give. It stays mounted while the
// unpacked image exists (a mount in the host's namespace, as any native
// process sees /proc); boxtax clean unmounts it before removing the files.
func mountImageProc(root string) error {
	dir := filepath.Join(root, "proc")
	if isProc(dir) {
		return nil
	}
	if err := os.MkdirAll(dir, 0o555); err != nil {
		return err
	}
	if err := syscall.Mount("proc", dir, "proc", syscall.MS_NOSUID|syscall.MS_NODEV|syscall.MS_NOEXEC, ""); err != nil {
		return fmt.Errorf("mounting /proc in the image's files at %s: %w (run boxtax as root)", dir, err)
	}
	return nil
}

// unmountImageProc unmounts root/proc, and refuses when a proc filesystem
// is still there: removing the files must not reach into it.
func unmountImageProc(root string) error {
	dir := filepath.Join(root, "proc")
	for i := 0; i < 4 && isProc(dir); i++ {
		_ = syscall.Unmount(dir, syscall.MNT_DETACH)
	}
	if isProc(dir) {
		return fmt.Errorf("cannot unmount %s: left the image's files at %s in place", dir, root)
	}
	return nil
}

// isProc tells whether dir is a proc mount.
func isProc(dir string) bool {
	var st syscall.Statfs_t
	return syscall.Statfs(dir, &st) == nil && st.Type == procSuperMagic
}
