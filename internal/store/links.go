package store

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// A database reached by several names: a symlink is harmless, since SQLite
// follows it and keeps the -wal and -shm files beside the file it names.
// Hard links are not: SQLite keeps them beside the name it was given, so
// two processes opening one file by two names use two write-ahead logs,
// and one of them reads without the other's runs, or writes over them
// (SQLite's "How To Corrupt", section 2.5). The study lock is the file's
// (LockStudy), whatever its name; and a second name is refused while the
// file is open under another (issue 25 item 1).

// sqliteName is the name SQLite opens the database at path by, beside
// which it keeps the -wal and -shm files: the path with every symlink
// resolved, as SQLite's unix VFS does.
func sqliteName(path string) string {
	if p, err := filepath.EvalSymlinks(path); err == nil {
		return p
	}
	return path
}

// sqliteSharedFirst and sqliteSharedSize are SQLite's shared lock range
// of a database file (SHARED_FIRST and SHARED_SIZE in os_unix.c): every
// connection to a WAL database holds a read lock in it while open.
const (
	sqliteSharedFirst = 0x40000000 + 2
	sqliteSharedSize  = 510
)

// checkOneName refuses to open the database at path under this name when
// the file has other names (hard links) and another process has it open
// while no -wal beside this name shows that it uses this one.
func checkOneName(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return nil // missing, or for the caller to say
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok || st.Nlink < 2 {
		return nil
	}
	if _, err := os.Lstat(sqliteName(path) + "-wal"); err == nil {
		return nil // opened under this name, or left by it
	}
	pid := lockHolder(st, sqliteSharedFirst, sqliteSharedFirst+sqliteSharedSize-1)
	if pid == 0 {
		return nil
	}
	who := fmt.Sprintf("process %d", pid)
	if pid < 0 {
		who = "another process"
	}
	return fmt.Errorf("%s has %d names (hard links) and %s has it open under another one: SQLite keeps a database's -wal file "+
		"beside the name it was opened by, so one file open under two names loses runs; use the name that process uses (a symlink to it is fine)",
		path, st.Nlink, who)
}

// lockHolder is the process id of another process holding a lock on bytes
// first to last of the file (-1 for an open-file-description lock, whose
// process the kernel does not say), or 0. It reads /proc/locks rather than asking
// fcntl, which would need a descriptor of the file, and closing one drops
// every POSIX lock this process holds on it (SQLite's included).
func lockHolder(st *syscall.Stat_t, first, last int64) int {
	b, err := os.ReadFile("/proc/locks")
	if err != nil {
		return 0
	}
	file := fmt.Sprintf("%02x:%02x:%d", unix.Major(st.Dev), unix.Minor(st.Dev), st.Ino)
	for _, line := range strings.Split(string(b), "\n") {
		// 1: POSIX  ADVISORY  READ 1234 08:01:5678 1073741826 1073742335
		f := strings.Fields(line)
		if len(f) != 8 || f[5] != file {
			continue // a blocked request ("->") or another file
		}
		pid, _ := strconv.Atoi(f[4])
		start, err := strconv.ParseInt(f[6], 10, 64)
		if err != nil || pid == os.Getpid() {
			continue
		}
		end := int64(math.MaxInt64)
		if f[7] != "EOF" {
			if end, err = strconv.ParseInt(f[7], 10, 64); err != nil {
				continue
			}
		}
		if start <= last && end >= first {
			return pid
		}
	}
	return 0
}
