package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
)

// outputFile is a file a command writes at a path the user named: -o of
// report, compare, analyze and devices, and the plot files (SVG, PNG). A
// regular file is written to a new file beside it and renamed over the path
// only when everything was written (Commit), so a failure, a full disk or
// Ctrl-C never leaves the path truncated, and the rename replaces the
// directory entry itself: a symbolic link planted at the path (in /tmp, say)
// is never followed to another file. Devices and pipes (/dev/stdout, a FIFO)
// are written directly.
type outputFile struct {
	*os.File
	target string // the path the new file becomes; "" when written directly
}

// openOutputFile opens the file at path for writing a command's output, as
// outputFile says. A new file's mode is 0666 less the umask, as the shell's
// `>` makes it; a file of this user's that is replaced keeps its mode. A
// symbolic link is refused unless it leads to a terminal, pipe or character
// device (/dev/stdout) and lies in a directory only its owner may write.
func openOutputFile(path string) (*outputFile, error) {
	li, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return newOutputFile(path, nil)
	case err != nil:
		return nil, fmt.Errorf("opening %s: %w", path, err)
	case li.Mode()&fs.ModeSymlink != 0:
		return openThroughLink(path)
	case li.IsDir():
		return nil, usagef("%s is a directory: name a file to write to", path)
	case li.Mode().IsRegular():
		return newOutputFile(path, li)
	}
	// A FIFO or a device, named directly: O_NOFOLLOW, should it have
	// become a link since.
	return openDirect(path, syscall.O_NOFOLLOW)
}

// openThroughLink opens a symbolic link's target for writing when it is a
// pipe or character device in a directory nobody else may write (so that
// nobody else planted it); anything else is refused.
func openThroughLink(path string) (*outputFile, error) {
	dest, _ := os.Readlink(path)
	fi, err := os.Stat(path)
	dir, derr := os.Stat(filepath.Dir(path))
	if err == nil && derr == nil && streamLike(fi.Mode()) && dir.Mode().Perm()&0o022 == 0 {
		return openDirect(path, 0)
	}
	return nil, usagef("%s is a symbolic link (to %s): refusing to write through it, since a link planted in a shared directory could aim the output at any file; "+
		"give the file's own path or another name (or leave out -o to write to standard output)", path, dest)
}

// checkOutputDir refuses a directory to write files into (--plots DIR)
// that is a symbolic link in a directory others may write: one planted
// there could aim the files anywhere.
func checkOutputDir(dir string) error {
	li, err := os.Lstat(dir)
	if err != nil || li.Mode()&fs.ModeSymlink == 0 {
		return nil
	}
	parent, err := os.Stat(filepath.Dir(dir))
	if err == nil && parent.Mode().Perm()&0o022 == 0 {
		return nil
	}
	dest, _ := os.Readlink(dir)
	return usagef("%s is a symbolic link (to %s) in a directory others may write: refusing to write through it; give the directory's own path", dir, dest)
}

// streamLike tells the files written in place: pipes (FIFOs) and
// character devices such as a terminal or /dev/null.
func streamLike(m fs.FileMode) bool {
	return m&fs.ModeNamedPipe != 0 || m&fs.ModeCharDevice != 0
}

// openDirect opens an existing pipe or character device for writing,
// neither creating nor truncating anything, and checks what was opened.
func openDirect(path string, flags int) (*outputFile, error) {
	f, err := os.OpenFile(path, os.O_WRONLY|flags, 0)
	if err != nil {
		return nil, fmt.Errorf("opening %s: %w", path, err)
	}
	fi, err := f.Stat()
	if err != nil || !streamLike(fi.Mode()) {
		f.Close()
		return nil, usagef("%s is not a regular file, a pipe or a terminal: refusing to write to it; name a file", path)
	}
	return &outputFile{File: f}, nil
}

// newOutputFile creates the file that replaces path (old: the file there
// now, or nil) in path's directory, with O_EXCL under a random name.
func newOutputFile(path string, old fs.FileInfo) (*outputFile, error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	var f *os.File
	var err error
	for range 100 {
		name := filepath.Join(dir, "."+base+".tmp-"+strconv.FormatUint(rand.Uint64(), 36))
		f, err = os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o666) // the kernel applies the umask
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return nil, fmt.Errorf("creating %s: %w", path, err)
	}
	if st, ok := statT(old); ok && int(st.Uid) == os.Geteuid() {
		if err := f.Chmod(old.Mode().Perm()); err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, fmt.Errorf("creating %s: %w", path, err)
		}
	}
	return &outputFile{File: f, target: path}, nil
}

// statT is the system's stat of fi, when fi is not nil.
func statT(fi fs.FileInfo) (*syscall.Stat_t, bool) {
	if fi == nil {
		return nil, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	return st, ok
}

// Commit makes the written output the file at its path: it syncs the new
// file and renames it over the path.
func (o *outputFile) Commit() error {
	if o.target == "" {
		return o.File.Close()
	}
	if err := o.File.Sync(); err != nil {
		o.Abort()
		return fmt.Errorf("writing %s: %w", o.target, err)
	}
	if err := o.File.Close(); err != nil {
		os.Remove(o.File.Name())
		return fmt.Errorf("writing %s: %w", o.target, err)
	}
	if err := os.Rename(o.File.Name(), o.target); err != nil {
		os.Remove(o.File.Name())
		return fmt.Errorf("writing %s: %w", o.target, err)
	}
	return nil
}

// Abort drops what was written; the file at the path stays as it was. It is
// safe to call after Commit.
func (o *outputFile) Abort() {
	o.File.Close()
	if o.target != "" {
		os.Remove(o.File.Name())
	}
}

// writeFileAt writes a whole file at path through write, as outputFile
// says: all or nothing.
func writeFileAt(path string, write func(io.Writer) error) error {
	f, err := openOutputFile(path)
	if err != nil {
		return err
	}
	return f.writeAll(write)
}

// writeAll writes the whole file through write and commits it only when
// write succeeded; otherwise the target is left as it was.
func (o *outputFile) writeAll(write func(io.Writer) error) error {
	defer o.Abort()
	if err := write(o); err != nil {
		return err
	}
	return o.Commit()
}
