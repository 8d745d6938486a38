package lxc

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/boxtax/boxtax/internal/env"
	"github.com/boxtax/boxtax/internal/hostimage"
)

// lxcRoot is the directory that holds everything boxtax makes for LXC:
// rootfs/<key> (the root filesystems, one per binary and program set),
// containers/ (the lxcpath of its containers, lxc-execute -P) and users/
// (which controller uses which root filesystem). Tests set their own.
var lxcRoot = "/var/lib/boxtax/lxc"

func lxcRootfsDir() string     { return filepath.Join(lxcRoot, "rootfs") }
func lxcContainersDir() string { return filepath.Join(lxcRoot, "containers") }

// lxcRootfsMu makes one rootfs at a time in this process.
var lxcRootfsMu sync.Mutex

// lxcMountPoints are the empty directories every root filesystem has: LXC
// mounts /proc, /sys and /dev (autodev) on them, and each container's own
// scratch directory on /tmp. /tmp is 1777 as in the Docker worker image.
var lxcMountPoints = []struct {
	path string
	mode fs.FileMode
}{{"proc", 0o555}, {"sys", 0o555}, {"dev", 0o755}, {"tmp", 0o1777}}

// binaryKey is the first 12 hex digits of the sha256 of the file, as the
// Docker worker image's tag has them.
func binaryKey(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fmt.Errorf("reading the worker binary for the container's root filesystem: %w", err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("reading the worker binary for the container's root filesystem: %w", err)
	}
	return hex.EncodeToString(h.Sum(nil))[:12], nil
}

// ensureLXCRootfs returns the root filesystem directory for the worker
// binary with the host programs (none: the binary alone), making it unless
// it exists. Its name is the key: the binary's hash, and the hash of the
// program files when there are programs, so a changed binary or program
// gets a new directory. It is made under a temporary name and renamed, so
// a directory with the key's name is always complete.
func ensureLXCRootfs(binary, binKey string, programs, files []string) (dir, key string, err error) {
	lxcRootfsMu.Lock()
	defer lxcRootfsMu.Unlock()
	key = binKey
	var set *hostimage.Set
	if len(programs) > 0 {
		if set, err = hostimage.Build(programs, hostimage.Options{Files: files}); err != nil {
			return "", "", fmt.Errorf("the root filesystem with host programs: %w", err)
		}
		setHash, err := set.Hash()
		if err != nil {
			return "", "", fmt.Errorf("the root filesystem with host programs: %w", err)
		}
		key += "-" + setHash[:12]
	}
	dir = filepath.Join(lxcRootfsDir(), key)
	if _, err := os.Stat(filepath.Join(dir, "boxtax")); err == nil {
		return dir, key, nil
	}
	if err := os.MkdirAll(lxcRootfsDir(), 0o755); err != nil {
		return "", "", fmt.Errorf("making %s for LXC root filesystems: %w (run boxtax as root)", lxcRootfsDir(), err)
	}
	tmp, err := os.MkdirTemp(lxcRootfsDir(), ".new-"+key+"-")
	if err != nil {
		return "", "", fmt.Errorf("making the LXC root filesystem: %w", err)
	}
	defer os.RemoveAll(tmp) // left only when the rename failed
	if err := os.Chmod(tmp, 0o755); err != nil {
		return "", "", err
	}
	if set != nil {
		if err := writeSet(tmp, set); err != nil {
			return "", "", fmt.Errorf("the root filesystem with host programs %s: %w", strings.Join(programs, ", "), err)
		}
	}
	for _, m := range lxcMountPoints {
		p := filepath.Join(tmp, m.path)
		if err := os.MkdirAll(p, 0o755); err != nil {
			return "", "", fmt.Errorf("making the LXC root filesystem: %w", err)
		}
		if err := os.Chmod(p, m.mode); err != nil {
			return "", "", fmt.Errorf("making the LXC root filesystem: %w", err)
		}
	}
	if err := copyFile(filepath.Join(tmp, "boxtax"), binary, 0o755); err != nil {
		return "", "", fmt.Errorf("copying the worker binary into the LXC root filesystem: %w", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "boxtax")); statErr == nil {
			return dir, key, nil // another boxtax made it meanwhile
		}
		return "", "", fmt.Errorf("making the LXC root filesystem %s: %w", dir, err)
	}
	return dir, key, nil
}

// writeSet writes the files of a host program set under root, with their
// modes: what the Docker image of the same set holds.
func writeSet(root string, set *hostimage.Set) error {
	for _, e := range set.Entries() {
		p := filepath.Join(root, filepath.FromSlash(strings.TrimPrefix(e.Path, "/")))
		switch e.Kind {
		case hostimage.Dir:
			if err := os.MkdirAll(p, 0o755); err != nil {
				return err
			}
			if err := os.Chmod(p, e.Mode); err != nil {
				return err
			}
		case hostimage.Symlink:
			if err := os.Symlink(e.Target, p); err != nil {
				return err
			}
		default:
			if e.Source == "" {
				if err := os.WriteFile(p, e.Data, 0o600); err != nil {
					return err
				}
				if err := os.Chmod(p, e.Mode); err != nil {
					return err
				}
				continue
			}
			if err := copyFile(p, e.Source, e.Mode); err != nil {
				return err
			}
		}
	}
	return nil
}

// copyFile copies src to dst with mode.
func copyFile(dst, src string, mode fs.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	if err := env.CreateFile(dst, in); err != nil {
		return err
	}
	return os.Chmod(dst, mode)
}

// useLXCRootfs records that this process uses the root filesystem key, so
// that `boxtax clean` in another terminal leaves it alone meanwhile.
func useLXCRootfs(key string) error {
	dir := filepath.Join(lxcRoot, "users", key)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, strconv.Itoa(os.Getpid())), nil, 0o644)
}

// releaseLXCRootfs removes this process's record of using the root filesystems.
func releaseLXCRootfs(keys []string) {
	for _, k := range keys {
		_ = os.Remove(filepath.Join(lxcRoot, "users", k, strconv.Itoa(os.Getpid())))
		_ = os.Remove(filepath.Join(lxcRoot, "users", k)) // when empty
	}
}

// removeUnusedLXCRootfs removes the root filesystems no running boxtax
// uses, and returns their keys.
func removeUnusedLXCRootfs() ([]string, error) {
	entries, err := os.ReadDir(lxcRootfsDir())
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range entries {
		key := e.Name()
		if strings.HasPrefix(key, ".new-") {
			// A half-made one: its maker's pid is not recorded, so only
			// remove it when no process uses the LXC directory at all.
			if len(liveLXCUsers("")) == 0 {
				errs = append(errs, os.RemoveAll(filepath.Join(lxcRootfsDir(), key)))
			}
			continue
		}
		if len(liveLXCUsers(key)) > 0 {
			continue
		}
		if err := os.RemoveAll(filepath.Join(lxcRootfsDir(), key)); err != nil {
			errs = append(errs, err)
			continue
		}
		_ = os.RemoveAll(filepath.Join(lxcRoot, "users", key))
		removed = append(removed, key)
	}
	return removed, errors.Join(errs...)
}

// liveLXCUsers lists the running processes recorded as users of the root
// filesystem key (of any, when key is ""), removing the records of
// processes that ended.
func liveLXCUsers(key string) []int {
	var dirs []string
	if key != "" {
		dirs = []string{filepath.Join(lxcRoot, "users", key)}
	} else {
		all, _ := os.ReadDir(filepath.Join(lxcRoot, "users"))
		for _, d := range all {
			dirs = append(dirs, filepath.Join(lxcRoot, "users", d.Name()))
		}
	}
	var live []int
	for _, d := range dirs {
		users, _ := os.ReadDir(d)
		for _, u := range users {
			pid, err := strconv.Atoi(u.Name())
			if err != nil {
				continue
			}
			if pid != os.Getpid() && !env.ProcessAlive(pid) {
				_ = os.Remove(filepath.Join(d, u.Name()))
				continue
			}
			live = append(live, pid)
		}
	}
	return live
}
