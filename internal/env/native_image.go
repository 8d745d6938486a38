package env

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"syscall"

	"github.com/boxtax/boxtax/internal/docker"
)

// NativeImageFiles is what the native side of an image study runs, as the
// report and the JSON say it.
const NativeImageFiles = "the image's files, chroot"

// NativeImageBinary is where the boxtax binary is put in an unpacked
// image, as it is mounted in a container of the user's image.
const NativeImageBinary = UserImageBinary

// binaryCopied are the unpacked images this process has put its binary in.
var binaryCopied sync.Map

// startInImage starts the worker natively in the files of spec.Image: the
// image's root filesystem, unpacked on this host, entered by chroot. No
// namespace of its own and no cgroup limits: the host's network, PIDs and
// mounts, as any native process. The worker is this very binary, copied
// into the files at the same path as it is mounted in a container; it
// runs as root, the program as the image's user (the cmd workload).
func (n *native) startInImage(ctx context.Context, spec Spec, args []string, stdout, stderr io.Writer) (Instance, error) {
	if spec.Netns != "" {
		return nil, fmt.Errorf("native: the image's files run in the host's network; an emulated wire is not supported with an image")
	}
	c, err := docker.FromGetenv(n.getenv)
	if err != nil {
		return nil, fmt.Errorf("native: the image's files are read through Docker: %w", err)
	}
	root, id, err := EnsureImageRootfs(ctx, c, spec.Image, spec.ImageID)
	if err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	if err := CopyBinaryInto(n.bin, root); err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	if err := mountImageProc(root); err != nil {
		return nil, fmt.Errorf("native: %w", err)
	}
	if err := MarkImageVolumesUsed(root); err != nil { // the next run gets them fresh
		return nil, fmt.Errorf("native: %w", err)
	}
	cmd := exec.Command(NativeImageBinary, args...)
	cmd.Dir = "/"
	cmd.Env = []string{"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME=/root"}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: root, Setpgid: true, Pdeathsig: syscall.SIGKILL}
	settings := Settings{"env": "native", "image": spec.Image, "image_id": id, "files": NativeImageFiles, "root": root}
	if spec.CPUSet != "" {
		settings["cpuset"] = spec.CPUSet
	}
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("starting worker %s in %s (chroot): %w", NativeImageBinary, root, err)
	}
	settings["pid"] = strconv.Itoa(cmd.Process.Pid)
	return &nativeInstance{cmd: cmd, settings: settings, done: make(chan struct{})}, nil
}

// CopyBinaryInto puts the worker binary bin at NativeImageBinary in root,
// once per process (a new binary replaces an older one): a hard link to
// bin when both are on one filesystem, so the native worker maps the very
// file a container's is mounted from (a copy made by one write sits in
// larger page-cache folios, the worker mapped 19 MiB of it against 12-13
// from bin, and the program's ru_maxrss inherits the worker's: docs/design/009).
func CopyBinaryInto(bin, root string) error {
	if _, done := binaryCopied.Load(root); done {
		return nil
	}
	dst := filepath.Join(root, NativeImageBinary)
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	tmp := fmt.Sprintf("%s.%d", dst, os.Getpid())
	_ = os.Remove(tmp)
	if os.Link(bin, tmp) == nil {
		err := os.Rename(tmp, dst)
		_ = os.Remove(tmp) // rename leaves it when dst is already this file
		if err != nil {
			return err
		}
		binaryCopied.Store(root, true)
		return nil
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		return fmt.Errorf("reading the worker binary: %w", err)
	}
	if old, err := os.ReadFile(dst); err == nil && slices.Equal(old, data) {
		binaryCopied.Store(root, true)
		return nil
	}
	if err := os.WriteFile(tmp, data, 0o755); err != nil {
		return fmt.Errorf("putting the worker binary in the image's files: %w", err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return err
	}
	binaryCopied.Store(root, true)
	return nil
}

// CheckSpec implements SpecChecker natively for an image study: the
// image's files are unpacked (once per image id) before the first run, so
// no run waits for them.
func (n *native) CheckSpec(ctx context.Context, spec Spec) error {
	if spec.Image == "" {
		return nil
	}
	c, err := docker.FromGetenv(n.getenv)
	if err != nil {
		return fmt.Errorf("native: the image's files are read through Docker: %w", err)
	}
	root, _, err := EnsureImageRootfs(ctx, c, spec.Image, spec.ImageID)
	if err != nil {
		return fmt.Errorf("native: %w", err)
	}
	if err := mountImageProc(root); err != nil {
		return fmt.Errorf("native: %w", err)
	}
	return CopyBinaryInto(n.bin, root)
}

// RunsOwnFiles tells whether e runs the worker in files of its own (an
// image or root filesystem) rather than the host's: every container
// environment, and native in an image study (image set).
func RunsOwnFiles(e Environment, image string) bool {
	if _, ok := e.(*native); ok {
		return image != ""
	}
	_, ok := e.(SpecChecker)
	return ok
}

// UserImageBinary is where the boxtax binary is mounted in a user's image.
const UserImageBinary = "/.boxtax/boxtax"
