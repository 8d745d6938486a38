package store

import (
	"errors"
	"fmt"
	"os"

	"golang.org/x/sys/unix"
)

// ErrStudyBusy is returned by LockStudy when another process runs the study.
var ErrStudyBusy = errors.New("the study is being run by another boxtax process")

// LockStudy makes sure that only one process runs (or resumes) study id of
// the database at path: it takes an open-file-description lock on byte id
// of the file PATH.lock beside the database, which the kernel drops when
// the process ends however it ends (kill -9 included), so a crashed study
// is never left locked. The returned function releases the lock. Studies of
// one database lock different bytes, so several studies still run at once.
func LockStudy(path string, id int64) (release func(), err error) {
	f, err := os.OpenFile(path+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, fmt.Errorf("locking study %d: %w", id, err)
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: id, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		f.Close()
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return nil, fmt.Errorf("study %d in %s: %w; wait for it to finish, or stop it (Ctrl-C) and resume", id, path, ErrStudyBusy)
		}
		return nil, fmt.Errorf("locking study %d: %w", id, err)
	}
	return func() { f.Close() }, nil
}
