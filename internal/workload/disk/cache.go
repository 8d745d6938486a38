package disk

import (
	"errors"
	"os"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// How reads were kept from being served by the page cache, as noted in
// "read_cache".
const (
	cacheODirect   = "o_direct"
	cacheFadvise   = "fadvise_dontneed"
	cacheDropAll   = "drop_caches"
	cacheUncertain = "none (page cache may serve reads)"
)

// Hooks for tests: whether to try O_DIRECT, and the file that empties the
// page cache when root writes 1 to it.
var (
	tryDirect      = true
	dropCachesPath = "/proc/sys/vm/drop_caches"
)

// directAlign is the alignment O_DIRECT asks of buffers, offsets and sizes;
// 4096 satisfies every device's logical block size up to 4 KiB.
const directAlign = 4096

// alignedBuffer returns n bytes starting at a multiple of directAlign, as
// O_DIRECT needs. Go's heap never moves, so the alignment lasts.
func alignedBuffer(n int) []byte {
	b := make([]byte, n+directAlign)
	off := int(uintptr(unsafe.Pointer(&b[0])) % directAlign)
	if off != 0 {
		off = directAlign - off
	}
	return b[off : off+n : off+n]
}

// openDirect opens path with O_DIRECT and checks with one read of buf at
// offset 0 that the filesystem accepts it. It returns (nil, nil) when it
// does not (EINVAL, as tmpfs on kernels before 6.x and some FUSE and
// overlay setups answer) or when buf is not a whole number of pages, so the
// caller falls back to buffered I/O; other errors are returned.
func openDirect(path string, flag int, buf []byte) (*os.File, error) {
	if !tryDirect || len(buf)%directAlign != 0 {
		return nil, nil
	}
	f, err := os.OpenFile(path, flag|syscall.O_DIRECT, 0)
	if errors.Is(err, syscall.EINVAL) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if _, err := f.ReadAt(buf, 0); err != nil {
		f.Close()
		if errors.Is(err, syscall.EINVAL) {
			return nil, nil
		}
		return nil, err
	}
	return f, nil
}

// dropCache asks the kernel to forget f's cached pages, which must be
// clean (synced), with posix_fadvise(POSIX_FADV_DONTNEED) on the whole
// file and, when systemWide is set and the process is root, by writing 1 to
// /proc/sys/vm/drop_caches (which empties the whole page cache, and which a
// container usually may not write). It returns the strongest method that
// worked.
func dropCache(f *os.File, systemWide bool) string {
	fadviseErr := unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_DONTNEED)
	if systemWide && os.Geteuid() == 0 {
		if w, err := os.OpenFile(dropCachesPath, os.O_WRONLY, 0); err == nil {
			_, err = w.WriteString("1")
			if w.Close() == nil && err == nil {
				return cacheDropAll
			}
		}
	}
	if fadviseErr == nil {
		return cacheFadvise
	}
	return cacheUncertain
}

// forget drops the cached pages of one range of f after it was read, so a
// later read of it goes to the device again; errors are ignored, as the
// method was already noted by dropCache.
func forget(f *os.File, off, n int64) {
	_ = unix.Fadvise(int(f.Fd()), off, n, unix.FADV_DONTNEED)
}

// adviseRandom turns off read-ahead for f, so a buffered random read reads
// only the block asked for.
func adviseRandom(f *os.File) {
	_ = unix.Fadvise(int(f.Fd()), 0, 0, unix.FADV_RANDOM)
}
