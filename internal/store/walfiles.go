package store

import (
	"errors"
	"io/fs"
	"math"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// A reader of a WAL database makes its -wal and -shm files when they are
// missing (SQLite needs the shared-memory index to read), owned by the
// reader. Left behind, they lock the database's owner out when the reader
// was another user: the owner cannot write them, and its next run fails
// "attempt to write a readonly database" (issue 25 item 4). SQLite's last
// connection removes them on close, but only one that may write; so a
// reader removes what it made itself, when nobody else uses them.

// shmDMSByte is the byte of the -shm file every SQLite connection using it
// keeps a read lock on (UNIX_SHM_DMS in SQLite's os_unix.c); the first
// connection takes it for writing to set the index up.
const shmDMSByte = 128

// walFiles says which of a database's -wal and -shm files exist.
type walFiles struct{ wal, shm bool }

func walFilesOf(path string) walFiles {
	path = sqliteName(path)
	_, errW := os.Lstat(path + "-wal")
	_, errS := os.Lstat(path + "-shm")
	return walFiles{wal: errW == nil, shm: errS == nil}
}

// removeMadeWALFiles removes the -wal and -shm files of the database at
// path that were missing before (before) and are there now, when no
// connection of any process uses them: it holds the -shm's DMS byte for
// writing (an open-file-description lock, which meets the POSIX locks of
// every connection, this process's included), so nobody can start using
// them while they go; a connection that tries waits, as for any busy
// database, and makes new ones. A -wal that holds frames (someone wrote
// and did not checkpoint) is kept: it holds committed runs.
func removeMadeWALFiles(path string, before walFiles) {
	if before.wal && before.shm {
		return
	}
	path = sqliteName(path)
	shm, err := os.OpenFile(path+"-shm", os.O_RDWR, 0)
	if err != nil {
		return
	}
	// Closing it drops this process's POSIX locks on the -shm; it is
	// closed only after the lock below proved that there are none.
	defer shm.Close()
	lk := unix.Flock_t{Type: unix.F_WRLCK, Start: shmDMSByte, Len: 1}
	if err := unix.FcntlFlock(shm.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		return // in use: its last user removes it
	}
	// A connection opening the database takes its shared lock on the
	// database file before it opens the -wal, and the -shm after: one
	// that holds the first may hold the -wal already.
	if db, err := os.Stat(path); err != nil || lockHolder(db.Sys().(*syscall.Stat_t), sqliteSharedFirst, sqliteSharedFirst+sqliteSharedSize-1) != 0 {
		return
	}
	if !before.wal {
		if fi, err := os.Lstat(path + "-wal"); err == nil && fi.Size() == 0 {
			os.Remove(path + "-wal")
		}
	}
	if !before.shm {
		os.Remove(path + "-shm")
	}
}

// removeStaleWALFiles removes the -wal and -shm files of the database at
// path when no process has the database open (no lock on SQLite's shared
// range of the file, none on the -shm: /proc/locks) and the -wal holds no
// frames: what a reader killed before its clean-up leaves, which would
// lock a writer of another user out. It tells whether they are gone.
func removeStaleWALFiles(path string) bool {
	path = sqliteName(path)
	db, errD := os.Stat(path)
	shm, errS := os.Stat(path + "-shm")
	if errD != nil || errS != nil {
		return false
	}
	if lockHolder(db.Sys().(*syscall.Stat_t), sqliteSharedFirst, sqliteSharedFirst+sqliteSharedSize-1) != 0 ||
		lockHolder(shm.Sys().(*syscall.Stat_t), 0, math.MaxInt64) != 0 {
		return false
	}
	if wal, err := os.Lstat(path + "-wal"); err == nil && wal.Size() > 0 {
		return false // committed runs not yet in the database: not a reader's
	}
	errW := os.Remove(path + "-wal")
	errS = os.Remove(path + "-shm")
	return (errW == nil || errors.Is(errW, fs.ErrNotExist)) && errS == nil
}
