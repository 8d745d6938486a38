package env

import (
	"archive/tar"
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/boxtax/boxtax/internal/docker"
)

// An image study's native side runs the image's own files (issue 38): the
// image's root filesystem, exported through the engine's API from a
// container that is created and never started (docker export), unpacked
// once per image id under imageRootsDir and entered by chroot.

// imageRootsDir holds the unpacked images: <id>/ (the root filesystem)
// and <id>.lock, which every boxtax using it holds shared, so that boxtax
// clean removes only those no running boxtax uses. Tests set their own.
var imageRootsDir = "/var/lib/boxtax/images"

// imageRootfsMu makes one root filesystem at a time in this process.
var imageRootfsMu sync.Mutex

// heldImageLocks are the lock files this process holds (shared) for as
// long as it runs, by image id.
var heldImageLocks = map[string]*os.File{}

// ImageKey is the directory name of an image id: its hex digits.
func ImageKey(id string) string { return strings.TrimPrefix(id, "sha256:") }

// imageDevices are the device files a root filesystem gets when it has
// none (chroot mounts nothing): what Docker's /dev holds besides pts and shm.
var imageDevices = []struct {
	name         string
	major, minor uint32
}{{"null", 1, 3}, {"zero", 1, 5}, {"full", 1, 7}, {"random", 1, 8}, {"urandom", 1, 9}, {"tty", 5, 0}}

// EnsureImageRootfs returns the directory holding the root filesystem of
// the image ref (a name or id) on the engine c, unpacking it the first
// time, and keeps it in use (locked) while this process runs. wantID, when
// set, is the id the study runs: another image under that name is refused.
func EnsureImageRootfs(ctx context.Context, c *docker.Client, ref, wantID string) (dir, id string, err error) {
	img, err := c.ImageInspect(ctx, ref)
	if docker.IsNotFound(err) {
		return "", "", fmt.Errorf("image %s is not on this engine: pull or load it first (boxtax pulls nothing)", ref)
	} else if err != nil {
		return "", "", fmt.Errorf("image %s: %w", ref, err)
	}
	if wantID != "" && img.ID != wantID {
		return "", "", fmt.Errorf("image %s is now %s, but the study runs %s: name the image by its id, or start a new study", ref, ShortID(img.ID), ShortID(wantID))
	}
	imageRootfsMu.Lock()
	defer imageRootfsMu.Unlock()
	key := ImageKey(img.ID)
	dir = filepath.Join(imageRootsDir, key)
	if err := os.MkdirAll(imageRootsDir, 0o700); err != nil {
		return "", "", fmt.Errorf("making %s for the images' files: %w (run boxtax as root)", imageRootsDir, err)
	}
	if _, held := heldImageLocks[key]; !held {
		lock, err := os.OpenFile(dir+".lock", os.O_CREATE|os.O_RDWR, 0o600)
		if err != nil {
			return "", "", fmt.Errorf("locking the files of image %s: %w", ref, err)
		}
		if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_SH); err != nil {
			lock.Close()
			return "", "", fmt.Errorf("locking the files of image %s: %w", ref, err)
		}
		heldImageLocks[key] = lock // until the process ends
	}
	volumes, err := imageVolumePaths(ref, slices.Sorted(maps.Keys(img.Config.Volumes)))
	if err != nil {
		return "", "", err
	}
	if unpacked(dir, volumes) {
		return dir, img.ID, nil
	}
	// One process unpacks at a time (the others hold the lock shared, too):
	// one that waited finds the files unpacked.
	unpacking, err := os.OpenFile(dir+".tmp-lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return "", "", fmt.Errorf("locking the files of image %s: %w", ref, err)
	}
	defer unpacking.Close()
	if err := syscall.Flock(int(unpacking.Fd()), syscall.LOCK_EX); err != nil {
		return "", "", fmt.Errorf("locking the files of image %s: %w", ref, err)
	}
	if unpacked(dir, volumes) {
		return dir, img.ID, nil
	}
	if err := checkImageSpace(imageRootsDir, ref, img.SizeBytes); err != nil {
		return "", "", err
	}
	tmp := fmt.Sprintf("%s.tmp-%d", dir, os.Getpid())
	_ = os.RemoveAll(tmp)
	if err := exportImage(ctx, c, img.ID, tmp); err != nil {
		_ = os.RemoveAll(tmp)
		return "", "", fmt.Errorf("unpacking image %s into %s: %w", ref, dir, err)
	}
	if err := saveImageVolumes(tmp, ref, volumes); err != nil {
		_ = os.RemoveAll(tmp)
		return "", "", fmt.Errorf("unpacking image %s into %s: %w", ref, dir, err)
	}
	marker := img.ID + "\n" + volumesMarkerKey + " " + strings.Join(volumes, " ") + "\n"
	if err := os.WriteFile(filepath.Join(tmp, unpackedMarker), []byte(marker), 0o600); err != nil {
		_ = os.RemoveAll(tmp)
		return "", "", err
	}
	if err := unmountImageProc(dir); err != nil { // a half one of a boxtax that was killed
		return "", "", err
	}
	_ = os.RemoveAll(dir)
	if err := os.Rename(tmp, dir); err != nil {
		_ = os.RemoveAll(tmp)
		return "", "", err
	}
	binaryCopied.Delete(dir) // files unpacked again lack it
	return dir, img.ID, nil
}

// unpackedMarker, in an unpacked image, says it is whole: the image id,
// then the volumes saved (volumesMarkerKey).
const unpackedMarker = ".boxtax-unpacked"

// unpacked tells whether the files at dir are whole and, when the image
// has volumes, have them saved: files unpacked by an older boxtax, with
// volumes written into by its runs, are unpacked again.
func unpacked(dir string, volumes []string) bool {
	marker, err := os.ReadFile(filepath.Join(dir, unpackedMarker))
	if err != nil {
		return false
	}
	return len(volumes) == 0 || strings.Contains(string(marker), "\n"+volumesMarkerKey)
}

// ShortID is an image or container id as docker image ls and docker ps
// show it.
func ShortID(id string) string {
	if k := ImageKey(id); len(k) > 12 {
		return k[:12]
	}
	return id
}

// checkImageSpace refuses to unpack an image of sizeBytes where the
// filesystem of dir has less free space than that and 10 % more.
func checkImageSpace(dir, ref string, sizeBytes int64) error {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return fmt.Errorf("checking the free space in %s: %w", dir, err)
	}
	free := int64(st.Bavail) * int64(st.Bsize)
	need := sizeBytes + sizeBytes/10
	if free < need {
		return fmt.Errorf("unpacking image %s for the native runs needs %.1f MB in %s, which has %.1f MB free: free some space (boxtax clean removes unpacked images no study uses)",
			ref, float64(need)/1e6, dir, float64(free)/1e6)
	}
	return nil
}

// exportImage writes the files of image id into dir: a container is
// created from it (never started) and exported, then removed.
func exportImage(ctx context.Context, c *docker.Client, id, dir string) error {
	created, err := c.ContainerCreate(ctx, docker.ContainerConfig{
		Image: id, Entrypoint: []string{"/.boxtax-export"},
		Labels: map[string]string{LabelManaged: "true", "io.boxtax.export": id},
	})
	if err != nil {
		return err
	}
	defer func() {
		rmCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), StopTimeout)
		defer cancel()
		_ = c.ContainerRemove(rmCtx, created.ID, true)
	}()
	stream, err := c.ContainerExport(ctx, created.ID)
	if err != nil {
		return err
	}
	defer stream.Close()
	if err := untar(stream, dir); err != nil {
		return err
	}
	return addDevices(dir)
}

// untar writes the archive's entries under dir, with their modes, owners
// and times, refusing any that would land outside it (.., or a path
// through a symlink the archive made).
func untar(r io.Reader, dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	tr := tar.NewReader(r)
	type dirTime struct {
		path string
		t    time.Time
	}
	var dirs []dirTime
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return fmt.Errorf("reading the exported files: %w", err)
		}
		name := filepath.Clean("/" + h.Name)
		if name == "/" {
			continue
		}
		target := filepath.Join(dir, name)
		if err := insideWithoutLinks(dir, filepath.Dir(name)); err != nil {
			return fmt.Errorf("%s: %w", h.Name, err)
		}
		mode := h.FileInfo().Mode() & (os.ModePerm | os.ModeSetuid | os.ModeSetgid | os.ModeSticky)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.Mkdir(target, 0o755); err != nil && !os.IsExist(err) {
				return err
			}
			dirs = append(dirs, dirTime{target, h.ModTime})
		case tar.TypeReg:
			_ = os.Remove(target)
			if err := CreateFile(target, tr); err != nil {
				return err
			}
		case tar.TypeSymlink:
			_ = os.Remove(target)
			if err := os.Symlink(h.Linkname, target); err != nil {
				return err
			}
		case tar.TypeLink:
			src := filepath.Join(dir, filepath.Clean("/"+h.Linkname))
			if err := insideWithoutLinks(dir, filepath.Dir(filepath.Clean("/"+h.Linkname))); err != nil {
				return fmt.Errorf("%s: %w", h.Name, err)
			}
			_ = os.Remove(target)
			if err := os.Link(src, target); err != nil {
				return err
			}
			continue // the file it shares has its owner and mode
		case tar.TypeChar, tar.TypeBlock, tar.TypeFifo:
			kind := uint32(syscall.S_IFCHR)
			switch h.Typeflag {
			case tar.TypeBlock:
				kind = syscall.S_IFBLK
			case tar.TypeFifo:
				kind = syscall.S_IFIFO
			}
			_ = os.Remove(target)
			dev := int((h.Devmajor&0xfff)<<8 | (h.Devminor & 0xff) | ((h.Devminor &^ 0xff) << 12))
			if err := syscall.Mknod(target, kind|uint32(mode.Perm()), dev); err != nil {
				return fmt.Errorf("%s: %w", h.Name, err)
			}
		default:
			continue
		}
		if err := os.Lchown(target, h.Uid, h.Gid); err != nil {
			return err
		}
		if h.Typeflag != tar.TypeSymlink {
			if err := os.Chmod(target, mode); err != nil {
				return err
			}
			_ = os.Chtimes(target, h.ModTime, h.ModTime)
		}
	}
	for i := len(dirs) - 1; i >= 0; i-- { // after their contents were written
		_ = os.Chtimes(dirs[i].path, dirs[i].t, dirs[i].t)
	}
	return nil
}

// insideWithoutLinks refuses a directory path under root that passes
// through a symlink: a file written there could land outside root.
func insideWithoutLinks(root, rel string) error {
	p := root
	for _, part := range strings.Split(strings.Trim(rel, "/"), "/") {
		if part == "" {
			continue
		}
		p = filepath.Join(p, part)
		st, err := os.Lstat(p)
		if errors.Is(err, os.ErrNotExist) {
			return nil // made below as a directory or file, not a link
		}
		if err != nil {
			return err
		}
		if st.Mode()&os.ModeSymlink != 0 {
			return fmt.Errorf("the path goes through the symlink %s: refused, it could lead out of the image's files", strings.TrimPrefix(p, root))
		}
	}
	return nil
}

// addDevices gives the root filesystem the device files chroot does not
// (a /dev of Docker's, with /dev/null and the rest, is mounted at run
// time, so the export has none), and /tmp with mode 1777.
func addDevices(dir string) error {
	devDir := filepath.Join(dir, "dev")
	if err := os.MkdirAll(devDir, 0o755); err != nil {
		return err
	}
	for _, d := range imageDevices {
		p := filepath.Join(devDir, d.name)
		if _, err := os.Lstat(p); err == nil {
			continue
		}
		if err := syscall.Mknod(p, syscall.S_IFCHR|0o666, int(d.major<<8|d.minor)); err != nil {
			return fmt.Errorf("making %s: %w (run boxtax as root)", p, err)
		}
		_ = os.Chmod(p, 0o666)
	}
	tmp := filepath.Join(dir, "tmp")
	if st, err := os.Lstat(tmp); err == nil && !st.IsDir() {
		return nil // the image's own /tmp (a link): left as it is
	}
	if err := os.MkdirAll(tmp, 0o1777); err != nil {
		return err
	}
	return os.Chmod(tmp, 0o1777|os.ModeSticky)
}

// RemoveImageRoots removes the unpacked images no running boxtax uses
// and says what it did (boxtax clean). Given image ids, it removes theirs
// alone, also when this process used them (its studies have ended).
func RemoveImageRoots(ids ...string) (done []string, err error) {
	locks, _ := filepath.Glob(filepath.Join(imageRootsDir, "*.lock"))
	if len(ids) > 0 {
		locks = nil
		imageRootfsMu.Lock()
		for _, id := range ids {
			locks = append(locks, filepath.Join(imageRootsDir, ImageKey(id)+".lock"))
			if own := heldImageLocks[ImageKey(id)]; own != nil {
				own.Close()
				delete(heldImageLocks, ImageKey(id))
			}
		}
		imageRootfsMu.Unlock()
	}
	var removed []string
	var errs []error
	for _, l := range locks {
		dir := strings.TrimSuffix(l, ".lock")
		f, err := os.OpenFile(l, os.O_RDWR, 0)
		if errors.Is(err, os.ErrNotExist) {
			continue // an id given that was never unpacked
		} else if err != nil {
			errs = append(errs, err)
			continue
		}
		if syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
			f.Close()
			continue // a running boxtax uses it
		}
		if err := unmountImageProc(dir); err != nil {
			f.Close()
			errs = append(errs, err)
			continue
		}
		tmps, _ := filepath.Glob(dir + ".tmp-*")
		for _, d := range append(tmps, dir) {
			if err := os.RemoveAll(d); err != nil {
				errs = append(errs, err)
			}
		}
		_ = os.Remove(l)
		f.Close()
		removed = append(removed, filepath.Base(dir)[:12])
	}
	if len(removed) > 0 {
		done = append(done, fmt.Sprintf("removed %d unpacked image(s) of the native image runs from %s: %s", len(removed), imageRootsDir, strings.Join(removed, " ")))
	}
	return done, errors.Join(errs...)
}
