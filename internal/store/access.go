package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrEmpty marks a database file that holds no studies yet: a 0-byte file,
// or an SQLite file without tables. A reader writes nothing into it.
var ErrEmpty = errors.New("it holds no studies yet")

// checkAccess tells whether this user may reach the database at path and
// open it with mode (unix.R_OK, or R_OK|W_OK for a writer); the error wraps
// fs.ErrPermission and names what stands in the way, with its mode and
// owner: a directory it may not enter, or the file itself. It
// asks the kernel (access(2)) rather than opening the file, because closing
// a descriptor of a database drops every SQLite lock this process holds on
// it. A missing file is not an error here.
func checkAccess(path string, mode uint32) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("database %q: %w", path, err)
	}
	if _, err := os.Stat(abs); err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return notADirectory(path, abs)
		}
		if !errors.Is(err, fs.ErrPermission) {
			return nil // missing, or for the caller's own error
		}
		for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
			if unix.Access(dir, unix.X_OK) != nil && canSee(filepath.Dir(dir)) {
				return fmt.Errorf("%s: %w: this user (uid %d) may not enter the directory %s (%s): "+
					"run boxtax as a user who may, or ask its owner to let you in (chmod o+x %s)", path, fs.ErrPermission, os.Getuid(), dir, modeOf(dir), dir)
			}
			if dir == filepath.Dir(dir) {
				return fmt.Errorf("%s: %w", path, err)
			}
		}
	}
	if unix.Access(abs, mode) == nil {
		return nil
	}
	if mode&unix.W_OK != 0 && unix.Access(abs, unix.R_OK) == nil {
		return fmt.Errorf("%s: %w: this user (uid %d) may not write it (%s), and boxtax writes the database a study runs in: "+
			"run boxtax as its owner, or copy the database somewhere you may write", path, fs.ErrPermission, os.Getuid(), modeOf(abs))
	}
	return fmt.Errorf("%s: %w: this user (uid %d) may not read it (%s): run boxtax as its owner, or ask them to make it readable (chmod a+r %s)",
		path, fs.ErrPermission, os.Getuid(), modeOf(abs), path)
}

// notADirectory names the file on the way to abs that stands where a
// directory should (issue 42, 15: --db q0.yaml/x.db was said to be a
// directory this user may not write).
func notADirectory(path, abs string) error {
	for dir := filepath.Dir(abs); dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
		if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
			return fmt.Errorf("%s: %s is a file, not a directory: give --db a path in a directory, e.g. %s",
				path, dir, filepath.Join(filepath.Dir(dir), filepath.Base(path)))
		}
	}
	return fmt.Errorf("%s: %w", path, syscall.ENOTDIR)
}

// canSee tells whether this user may look into dir (search it): the
// directory whose entry is the one refused.
func canSee(dir string) bool { return unix.Access(dir, unix.X_OK) == nil }

// modeOf describes a file's mode and owner, e.g. "mode 0600, owner uid 1000".
func modeOf(path string) string {
	fi, err := os.Stat(path)
	if err != nil {
		return "mode unknown"
	}
	s := fmt.Sprintf("mode %04o", fi.Mode().Perm())
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		s += fmt.Sprintf(", owner uid %d", st.Uid)
	}
	return s
}

// checkWritable is checkAccess for a writer (Open): the file, when it
// exists, must be readable and writable, so must its -wal and -shm files
// when they exist (another user's reader may have left them: issue 25
// item 4), and its directory must be writable when SQLite has a file to
// make there.
func checkWritable(path string) error {
	if err := checkAccess(path, unix.R_OK|unix.W_OK); err != nil {
		return err
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		p := sqliteName(path) + suffix
		if _, err := os.Lstat(p); err == nil && unix.Access(p, unix.R_OK|unix.W_OK) != nil && !removeStaleWALFiles(path) {
			return fmt.Errorf("%s: %w: this user (uid %d) may not write %s (%s), SQLite's file beside the database, which a reader "+
				"running as its owner made and still has open: wait for it to end (a boxtax serve, report or list as that user) and run again",
				path, fs.ErrPermission, os.Getuid(), p, modeOf(p))
		}
	}
	have := walFilesOf(path)
	if _, err := os.Stat(path); err == nil && have.wal && have.shm {
		return nil
	}
	abs, err := filepath.Abs(sqliteName(path))
	if err != nil {
		return fmt.Errorf("database %q: %w", path, err)
	}
	if dir := filepath.Dir(abs); unix.Access(dir, unix.W_OK|unix.X_OK) != nil {
		return fmt.Errorf("%s: %w: this user (uid %d) may not make files in the directory %s (%s), where SQLite keeps the database "+
			"and its -wal and -shm files: run boxtax as a user who may, or give --db a path in a directory you may write",
			path, fs.ErrPermission, os.Getuid(), dir, modeOf(dir))
	}
	return nil
}
