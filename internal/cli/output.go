package cli

import (
	"bytes"
	"io"
	"os"
)

// createOutput opens path for writing a command's output (see outputFile).
// It refuses a path that is one of the databases the command reads (the
// same file, also through a symlink or a hard link, or SQLite's -wal, -shm
// and -journal files beside it) and any existing SQLite database or WAL
// file, since writing over one destroys studies.
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
	return openOutputFile(path)
}

// writeOutput writes to path (stdout when path is "") through write, and
// commits the file only when write succeeded. Whatever the format, what
// goes to a terminal has its control characters made visible (termtext),
// and the text table is coloured there (terminalOut).
func writeOutput(g *Globals, path string, dbs []string, write func(io.Writer) error) error {
	if path == "" {
		return write(terminalOut(g))
	}
	f, err := createOutput(path, dbs...)
	if err != nil {
		return err
	}
	return f.writeAll(write)
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
