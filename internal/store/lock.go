package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// ErrStudyBusy is returned by LockStudy when another process runs the study.
var ErrStudyBusy = errors.New("the study is being run by another boxtax process")

// studyLockBase is the offset of study 0's lock byte in the database file:
// 1 TiB, far past SQLite's own lock bytes (1 GiB to 1 GiB + 512), which a
// lock on the file must not touch. A lock past the end of a file is legal
// and grows nothing.
const studyLockBase = 1 << 40

// LockStudy makes sure that only one process runs (or resumes) study id of
// the database at path: it takes an open-file-description lock on byte
// studyLockBase+id of the database file itself, which the kernel drops when
// the process ends however it ends (kill -9 included), so a crashed study
// is never left locked. The lock belongs to the file, not to the name it
// was reached by: a symlink or a hard link to the database meets the same
// lock (issue 25 item 1). Studies of one database lock different bytes, so
// several studies still run at once. The returned function releases it.
func LockStudy(path string, id int64) (release func(), err error) {
	f, err := lockFiles.get(path)
	if err != nil {
		if errors.Is(err, fs.ErrPermission) {
			return nil, fmt.Errorf("locking study %d: %w: boxtax needs to write %s to run a study in it", id, err, path)
		}
		return nil, fmt.Errorf("locking study %d: %w", id, err)
	}
	lk := unix.Flock_t{Type: unix.F_WRLCK, Whence: 0, Start: studyLockBase + id, Len: 1}
	if err := unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk); err != nil {
		lockFiles.put(f)
		if errors.Is(err, unix.EAGAIN) || errors.Is(err, unix.EACCES) {
			return nil, fmt.Errorf("study %d in %s: %w; wait for it to finish, or stop it (Ctrl-C) and resume", id, path, ErrStudyBusy)
		}
		return nil, fmt.Errorf("locking study %d: %w", id, err)
	}
	var once sync.Once
	return func() {
		once.Do(func() {
			lk.Type = unix.F_UNLCK
			_ = unix.FcntlFlock(f.Fd(), unix.F_OFD_SETLK, &lk)
			lockFiles.put(f)
		})
	}, nil
}

// lockFiles holds the descriptors LockStudy locks through. One is never
// closed: closing any descriptor of a file drops every POSIX lock this
// process holds on it, SQLite's included, while SQLite may have the same
// database open. A released descriptor waits here, unlocked, for the next
// lock of its file, so a process holds at most as many as it ever held
// study locks at once on one file.
var lockFiles = lockPool{free: map[fileID][]*os.File{}}

// fileID is a file's identity, whatever path reaches it.
type fileID struct{ dev, ino uint64 }

type lockPool struct {
	mu   sync.Mutex
	free map[fileID][]*os.File
}

// get returns a descriptor of the file at path that holds no lock: a
// released one of the same file, else a new one (its own open file
// description, so that its locks meet those of this process's others).
func (p *lockPool) get(path string) (*os.File, error) {
	if fi, err := os.Stat(path); err == nil {
		p.mu.Lock()
		defer p.mu.Unlock()
		id := idOf(fi)
		if fs := p.free[id]; len(fs) > 0 {
			f := fs[len(fs)-1]
			p.free[id] = fs[:len(fs)-1]
			return f, nil
		}
	}
	return os.OpenFile(path, os.O_RDWR, 0)
}

// put keeps a descriptor that holds no lock for the next get of its file.
func (p *lockPool) put(f *os.File) {
	fi, err := f.Stat()
	if err != nil {
		return // kept open (see lockFiles), but not reused
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	id := idOf(fi)
	p.free[id] = append(p.free[id], f)
}

func idOf(fi os.FileInfo) fileID {
	st := fi.Sys().(*syscall.Stat_t)
	return fileID{uint64(st.Dev), uint64(st.Ino)}
}
