package rt

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"

	"github.com/boxtax/boxtax/internal/workload/rt/sched"
)

// ringFrames is how many frames the frame file holds before the writes
// wrap to its start: a recording that keeps the last few seconds, so that
// an hour's run does not fill the disk (64 VGA frames are 39 MB).
const ringFrames = 64

// syntheticFrames is how many distinct frames the synthetic camera cycles
// through, so that consecutive writes differ as a camera's frames do.
const syntheticFrames = 4

// frameSink is rt.periodic-io's input and output: a synthetic camera that
// delivers a YUYV frame into a buffer, and a file the frame is written to.
type frameSink struct {
	frame   []byte
	sources [syntheticFrames][]byte
	fd      int
	path    string
	offset  int64 // where the next write goes
	ring    int64 // the file's size once full
	sync    uintptr
}

// newFrameSink makes the synthetic frames and opens the frame file in dir.
func newFrameSink(dir string, c config) (*frameSink, error) {
	f := &frameSink{frame: make([]byte, c.frameBytes), ring: int64(ringFrames) * int64(c.frameBytes)}
	for k := range f.sources {
		f.sources[k] = syntheticFrame(c.frameWidth, c.frameHeight, k)
	}
	switch c.sync {
	case SyncFdatasync:
		f.sync = unix.SYS_FDATASYNC
	case SyncFsync:
		f.sync = unix.SYS_FSYNC
	}
	f.path = filepath.Join(dir, "frames.yuv")
	fd, err := unix.Open(f.path, unix.O_WRONLY|unix.O_CREAT|unix.O_TRUNC|unix.O_CLOEXEC, 0o644)
	if err != nil {
		return nil, fmt.Errorf("creating the frame file %s: %w", f.path, err)
	}
	f.fd = fd
	return f, nil
}

// syntheticFrame paints a YUYV frame: a luma gradient shifted by k, so each
// of the synthetic frames differs in every line, and neutral chroma.
func syntheticFrame(width, height, k int) []byte {
	b := make([]byte, 2*width*height)
	for y := 0; y < height; y++ {
		row := b[2*width*y : 2*width*(y+1)]
		for x := 0; x < width; x++ {
			row[2*x] = byte(x + y + 37*k)
			row[2*x+1] = 128
		}
	}
	return b
}

// capture delivers the next frame into the buffer, stamped with the slice
// number as a camera stamps its sequence number, and returns the time.
//
//go:nosplit
func (f *frameSink) capture(slice int) int64 {
	copy(f.frame, f.sources[slice%syntheticFrames])
	for b := 0; b < 8 && b < len(f.frame); b++ {
		f.frame[b] = byte(slice >> (8 * b))
	}
	return sched.Now()
}

// write writes the frame at the file's current place (wrapping to the start
// when the ring is full), syncs it if asked, and returns the time.
//
//go:nosplit
func (f *frameSink) write() (int64, unix.Errno) {
	n := int64(len(f.frame))
	if f.offset+n > f.ring {
		if _, _, e := unix.RawSyscall(unix.SYS_LSEEK, uintptr(f.fd), 0, unix.SEEK_SET); e != 0 {
			return 0, e
		}
		f.offset = 0
	}
	b := f.frame
	for len(b) > 0 {
		w, _, e := unix.RawSyscall(unix.SYS_WRITE, uintptr(f.fd), uintptr(unsafe.Pointer(&b[0])), uintptr(len(b)))
		if e == unix.EINTR {
			continue
		}
		if e != 0 {
			return 0, e
		}
		b = b[w:]
	}
	f.offset += n
	if f.sync != 0 {
		if _, _, e := unix.RawSyscall(f.sync, uintptr(f.fd), 0, 0); e != 0 {
			return 0, e
		}
	}
	return sched.Now(), 0
}

// close closes and removes the frame file.
func (f *frameSink) close() {
	unix.Close(f.fd)
	os.Remove(f.path)
}

// fsType names the filesystem holding dir (statfs magic, linux/magic.h).
func fsType(dir string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "unknown"
	}
	magic := uint32(st.Type)
	names := map[uint32]string{0xEF53: "ext4", 0x58465342: "xfs", 0x9123683E: "btrfs", 0xF2F52010: "f2fs",
		0x01021994: "tmpfs", 0x794C7630: "overlayfs", 0x65735546: "fuse", 0x24051905: "ubifs", 0x4D44: "vfat"}
	if name, ok := names[magic]; ok {
		return name
	}
	return "0x" + strconv.FormatUint(uint64(magic), 16)
}

// cameraNote says whether a V4L2 camera is present; boxtax does not capture
// from it (yet), so frames are synthetic either way.
func cameraNote() string {
	devs, _ := filepath.Glob("/dev/video*")
	if len(devs) == 0 {
		return "none (/dev/video* absent): synthetic frames"
	}
	return devs[0] + " present but not used (boxtax does not capture through V4L2): synthetic frames"
}
