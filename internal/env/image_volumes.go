package env

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"
)

// An image's VOLUMEs start fresh in every run, in every environment (issue
// 38). Docker and Podman give each container a new anonymous volume,
// filled from the image's files at that path; natively and in LXC the
// unpacked files are reused from run to run, so what one run wrote in a
// volume would be there for the next (a log appended to grows natively
// only). So when an image is unpacked, the content of each volume path is
// saved under imageVolumesDir, and before each run that used the files
// since, FreshImageVolumes puts it back. Writes elsewhere in the files
// stay: a container's are lost with its writable layer, a native run's
// are not (docs/design/009).

// imageVolumesDir, in an unpacked image, holds the pristine copy of each
// VOLUME path, under a name of one component (volumeDirName).
const imageVolumesDir = ".boxtax-volumes"

// volumesUsedName, in imageVolumesDir, says that a native worker or an
// LXC container started in the files since their volumes were last made
// fresh. The escaped names all start with %2F, so none is this one.
const volumesUsedName = ".used"

// volumesMarkerKey starts the line of the unpack marker (.boxtax-unpacked)
// that lists the volumes saved: files unpacked by a boxtax without it,
// of an image that has volumes, are unpacked again.
const volumesMarkerKey = "volumes:"

// volumeDirName is the one-component name under imageVolumesDir of the
// volume at the clean absolute path p: p escaped, /data -> %2Fdata.
func volumeDirName(p string) string { return url.PathEscape(p) }

// imageVolumePaths returns the image's volume paths, clean and sorted (a
// volume before those inside it), or why one of them cannot start fresh
// natively, with what to do.
func imageVolumePaths(ref string, volumes []string) ([]string, error) {
	var out []string
	for _, v := range volumes {
		p := path.Clean("/" + v)
		why := ""
		switch {
		case p == "/":
			why = "a volume at / is the whole root filesystem"
		case p == "/proc" || strings.HasPrefix(p, "/proc/"):
			why = "/proc is the kernel's, mounted in the files"
		case p == "/"+imageVolumesDir || strings.HasPrefix(p, "/"+imageVolumesDir+"/"):
			why = "boxtax keeps the volumes' fresh copies there"
		case p == path.Dir(NativeImageBinary) || strings.HasPrefix(p, path.Dir(NativeImageBinary)+"/"):
			why = "boxtax puts its worker there"
		case len(volumeDirName(p)) > 255:
			why = "the path is too long to name its saved copy"
		}
		if why != "" {
			return nil, fmt.Errorf("image %s declares VOLUME %s, which boxtax cannot give each native and LXC run fresh: %s; build the image without that VOLUME, or leave native and lxc out of --envs", ref, v, why)
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	slices.Sort(out)
	return out, nil
}

// saveImageVolumes copies the content of each volume path (clean, from
// imageVolumePaths) of the files at root to imageVolumesDir: what a
// container's fresh volume is filled with. A path the image lacks gets an
// empty directory, as Docker makes one.
func saveImageVolumes(root, ref string, volumes []string) error {
	if len(volumes) == 0 {
		return nil
	}
	saved := filepath.Join(root, imageVolumesDir)
	if err := os.Mkdir(saved, 0o700); err != nil {
		return err
	}
	for _, p := range volumes {
		src, err := pathInRoot(root, p)
		if err != nil {
			return fmt.Errorf("image %s, VOLUME %s: %w", ref, p, err)
		}
		dst := filepath.Join(saved, volumeDirName(p))
		st, err := os.Lstat(src)
		switch {
		case errors.Is(err, os.ErrNotExist):
			if err := os.Mkdir(dst, 0o755); err != nil {
				return err
			}
			continue
		case err != nil:
			return err
		case !st.IsDir():
			return fmt.Errorf("image %s declares VOLUME %s, but its files have a file there, not a directory: a container could not mount a volume on it; fix the image", ref, p)
		}
		if err := os.Mkdir(dst, 0o700); err != nil {
			return err
		}
		if err := copyContent(src, dst); err != nil {
			return fmt.Errorf("saving the content of image %s's VOLUME %s: %w", ref, p, err)
		}
		if err := copyAttrs(dst, st); err != nil {
			return err
		}
	}
	return nil
}

// MarkImageVolumesUsed records that a worker starts in the unpacked files
// at root (natively or in LXC), so that FreshImageVolumes gives the next
// run its volumes fresh. Files without volumes need nothing.
func MarkImageVolumesUsed(root string) error {
	saved := filepath.Join(root, imageVolumesDir)
	if _, err := os.Stat(saved); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err := os.WriteFile(filepath.Join(saved, volumesUsedName), nil, 0o600); err != nil {
		return fmt.Errorf("marking the volumes of %s used: %w", root, err)
	}
	return nil
}

// FreshImageVolumes gives the next run in the unpacked files of image
// imageID its volumes as the image has them: each volume path's content
// is removed and the saved copy put back, with its modes, owners and
// links. It does nothing when no worker started in the files since the
// last time (one stat), nor for files not unpacked or without volumes.
func FreshImageVolumes(imageID string) error {
	return restoreImageVolumes(filepath.Join(imageRootsDir, ImageKey(imageID)))
}

// restoreImageVolumes is FreshImageVolumes for the files at root.
func restoreImageVolumes(root string) error {
	saved := filepath.Join(root, imageVolumesDir)
	used := filepath.Join(saved, volumesUsedName)
	if _, err := os.Stat(used); errors.Is(err, os.ErrNotExist) {
		return nil
	}
	entries, err := os.ReadDir(saved)
	if err != nil {
		return err
	}
	var paths []string
	for _, e := range entries {
		if p, err := url.PathUnescape(e.Name()); err == nil && strings.HasPrefix(p, "/") {
			paths = append(paths, p)
		}
	}
	slices.Sort(paths) // a volume before those inside it
	for _, p := range paths {
		if err := restoreVolume(root, p, filepath.Join(saved, volumeDirName(p))); err != nil {
			return fmt.Errorf("making the image's volume %s fresh in %s: %w (boxtax clean removes the unpacked files; the next run unpacks them again)", p, root, err)
		}
	}
	return os.Remove(used)
}

// restoreVolume empties the volume at p in the files at root and copies
// the saved content from src into it.
func restoreVolume(root, p, src string) error {
	srcSt, err := os.Lstat(src)
	if err != nil {
		return err
	}
	dst, err := pathInRoot(root, p)
	if err != nil {
		return err
	}
	st, err := os.Lstat(dst)
	switch {
	case err == nil && st.IsDir():
		entries, err := os.ReadDir(dst)
		if err != nil {
			return err
		}
		for _, e := range entries {
			if err := os.RemoveAll(filepath.Join(dst, e.Name())); err != nil {
				return err
			}
		}
	case err == nil: // a run put a file there
		if err := os.RemoveAll(dst); err != nil {
			return err
		}
		fallthrough
	case errors.Is(err, os.ErrNotExist):
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		if err := os.Mkdir(dst, 0o700); err != nil {
			return err
		}
	default:
		return err
	}
	if err := copyContent(src, dst); err != nil {
		return err
	}
	return copyAttrs(dst, srcSt)
}

// pathInRoot is the host path of p in the files at root, following the
// files' symlinks as a process chrooted there would, and never leading
// out of root (an absolute link starts again at root, .. stops at it).
func pathInRoot(root, p string) (string, error) {
	parts := strings.Split(p, "/")
	cur, links := "/", 0
	for len(parts) > 0 {
		part := parts[0]
		parts = parts[1:]
		if part == "" || part == "." {
			continue
		}
		if part == ".." {
			cur = path.Dir(cur)
			continue
		}
		next := path.Join(cur, part)
		st, err := os.Lstat(filepath.Join(root, next))
		if errors.Is(err, os.ErrNotExist) { // the rest is made below, no link
			return filepath.Join(root, path.Join(append([]string{next}, parts...)...)), nil
		} else if err != nil {
			return "", err
		}
		if st.Mode()&os.ModeSymlink == 0 {
			cur = next
			continue
		}
		if links++; links > 40 {
			return "", fmt.Errorf("too many symlinks on the way to %s", p)
		}
		target, err := os.Readlink(filepath.Join(root, next))
		if err != nil {
			return "", err
		}
		if path.IsAbs(target) {
			cur = "/"
		}
		parts = append(strings.Split(target, "/"), parts...)
	}
	return filepath.Join(root, cur), nil
}

// copyContent copies what the directory src holds into the directory dst
// (empty): directories, files, symlinks and device files, with their
// modes, owners and times. A hard link becomes a file of its own.
func copyContent(src, dst string) error {
	entries, err := os.ReadDir(src)
	if err != nil {
		return err
	}
	for _, e := range entries {
		from, to := filepath.Join(src, e.Name()), filepath.Join(dst, e.Name())
		st, err := os.Lstat(from)
		if err != nil {
			return err
		}
		switch mode := st.Mode(); {
		case mode.IsDir():
			if err := os.Mkdir(to, 0o700); err != nil {
				return err
			}
			if err := copyContent(from, to); err != nil {
				return err
			}
		case mode.IsRegular():
			if err := copyFile(from, to); err != nil {
				return err
			}
		case mode&os.ModeSymlink != 0:
			target, err := os.Readlink(from)
			if err != nil {
				return err
			}
			if err := os.Symlink(target, to); err != nil {
				return err
			}
		case mode&(os.ModeDevice|os.ModeNamedPipe) != 0:
			sys, _ := st.Sys().(*syscall.Stat_t)
			if sys == nil {
				continue
			}
			if err := syscall.Mknod(to, sys.Mode, int(sys.Rdev)); err != nil {
				return fmt.Errorf("%s: %w", to, err)
			}
		default:
			continue // a socket: a program makes its own when it listens
		}
		if err := copyAttrs(to, st); err != nil {
			return err
		}
	}
	return nil
}

// copyFile copies the regular file src to dst, which must not exist.
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	return CreateFile(dst, in)
}

// CreateFile writes r to the file path, which it creates with mode 0600:
// path must not exist, not even as a symbolic link.
func CreateFile(path string, r io.Reader) error {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY|syscall.O_NOFOLLOW, 0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// copyAttrs gives dst the owner, mode and times of st (a symlink its
// owner alone).
func copyAttrs(dst string, st os.FileInfo) error {
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		if err := os.Lchown(dst, int(sys.Uid), int(sys.Gid)); err != nil {
			return err
		}
	}
	if st.Mode()&os.ModeSymlink != 0 {
		return nil
	}
	if err := os.Chmod(dst, st.Mode()&(os.ModePerm|os.ModeSetuid|os.ModeSetgid|os.ModeSticky)); err != nil {
		return err
	}
	mtime := st.ModTime()
	return os.Chtimes(dst, time.Time{}, mtime)
}
