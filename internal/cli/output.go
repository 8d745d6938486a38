package cli

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// outputFile is a report, comparison or analysis being written to -o PATH.
// A regular file is written to a temporary file beside it and renamed over
// PATH only when everything was written (Commit), so a failure, a full disk
// or Ctrl-C never leaves PATH truncated. Devices and pipes (/dev/stdout, a
// FIFO) are written directly.
type outputFile struct {
	*os.File
	target string // the path the temporary file becomes; "" when written directly
}

// createOutput opens path for writing a command's output. It refuses a
// path that is one of the databases the command reads (the same file, also
// through a symlink or a hard link, or SQLite's -wal, -shm and -journal files
// beside it) and any existing SQLite database or WAL file, since writing over
// one destroys studies.
func createOutput(path string, dbs ...string) (*outputFile, error) {
	if path == "" {
		return nil, usagef("-o needs a file name")
	}
	fi, statErr := os.Stat(path)
	for _, db := range dbs {
		if db == "" {
			continue
		}
		for _, suffix := range []string{"", "-wal", "-shm", "-journal"} {
			dbi, err := os.Stat(db + suffix)
			if err == nil && statErr == nil && os.SameFile(fi, dbi) {
				return nil, usagef("-o %s is the database %s%s: refusing to write over it; choose another output file", path, db, suffix)
			}
		}
	}
	if statErr == nil && fi.Mode().IsRegular() {
		if kind := databaseKind(path); kind != "" {
			return nil, usagef("-o %s is %s: refusing to write over it; choose another output file", path, kind)
		}
	}
	if statErr == nil && !fi.Mode().IsRegular() {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("opening -o %s: %w", path, err)
		}
		return &outputFile{File: f}, nil
	}
	target := path
	if resolved, err := filepath.EvalSymlinks(path); err == nil {
		target = resolved // write through a symlink, do not replace it
	}
	mode := os.FileMode(0o644)
	if statErr == nil {
		mode = fi.Mode().Perm()
	}
	f, err := os.CreateTemp(filepath.Dir(target), "."+filepath.Base(target)+".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("creating -o %s: %w", path, err)
	}
	if err := f.Chmod(mode); err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, fmt.Errorf("creating -o %s: %w", path, err)
	}
	return &outputFile{File: f, target: target}, nil
}

// Commit makes the written output the file at its path: it syncs the
// temporary file and renames it over the target.
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

// writeOutput writes to path (stdout when path is "") through write, and
// commits the file only when write succeeded.
func writeOutput(stdout io.Writer, path string, dbs []string, write func(io.Writer) error) error {
	if path == "" {
		return write(stdout)
	}
	f, err := createOutput(path, dbs...)
	if err != nil {
		return err
	}
	defer f.Abort()
	if err := write(f); err != nil {
		return err
	}
	return f.Commit()
}

// databaseKind names what an existing file is when it is an SQLite database
// or an SQLite WAL file, or returns "".
func databaseKind(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	head := make([]byte, 16)
	n, _ := io.ReadFull(f, head)
	head = head[:n]
	switch {
	case bytes.HasPrefix(head, []byte("SQLite format 3\x00")):
		return "an SQLite database"
	case len(head) >= 4 && (bytes.Equal(head[:4], []byte{0x37, 0x7f, 0x06, 0x82}) || bytes.Equal(head[:4], []byte{0x37, 0x7f, 0x06, 0x83})):
		return "an SQLite write-ahead log"
	}
	return ""
}
