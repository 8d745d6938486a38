package disk

import (
	"strconv"

	"github.com/boxtax/boxtax/internal/workload"
	"golang.org/x/sys/unix"
)

// fsMagic names filesystems by the magic number statfs reports (from
// linux/magic.h).
var fsMagic = map[uint32]string{
	0xEF53:     "ext4", // also ext2 and ext3
	0x58465342: "xfs",
	0x9123683E: "btrfs",
	0xF2F52010: "f2fs",
	0x01021994: "tmpfs",
	0x794C7630: "overlayfs",
	0x65735546: "fuse", // fuse-overlayfs among others
	0x6969:     "nfs",
	0x2FC12FC1: "zfs",
	0x4D44:     "vfat",
	0x5346544E: "ntfs",
	0x73717368: "squashfs",
	0x858458F6: "ramfs",
	0x24051905: "ubifs",
	0x01161970: "gfs2",
	0xFF534D42: "cifs",
	0x6E667364: "nfsd",
	0x00C36400: "ceph",
	0x62656572: "sysfs",
	0x9FA0:     "proc",
}

// fsType returns the name of the filesystem holding dir, or its magic
// number in hex when the name is not known.
func fsType(dir string) string {
	var st unix.Statfs_t
	if err := unix.Statfs(dir, &st); err != nil {
		return "unknown (" + err.Error() + ")"
	}
	magic := uint32(st.Type) // int64 on amd64, int32 on 32-bit ARM
	if name, ok := fsMagic[magic]; ok {
		return name
	}
	return "0x" + strconv.FormatUint(uint64(magic), 16)
}

// fsWarning says what may still let the page cache or another layer serve
// reads on this filesystem type, or "" when nothing is known.
func fsWarning(fs string) string {
	switch fs {
	case "fuse":
		return "FUSE filesystem (e.g. Docker's fuse-overlayfs): O_DIRECT stops at the FUSE daemon, which reads and writes its backing file through the host's page cache, so reads may come from memory; and every read and write is a round trip to that daemon, a process of the host whose CPU the scheduler picks: on the workload's CPU or another, the rate differs up to 2.5 times, so runs spread widely (design note 015; bench/fuseplace measures it)"
	case "tmpfs", "ramfs":
		return "memory-backed filesystem: no device is involved"
	case "overlayfs":
		return "overlayfs: I/O goes to the upper layer's filesystem"
	}
	return ""
}

// noteFS notes the directory a disk workload writes in, its file system
// and any warning about that file system.
func noteFS(e workload.Emitter, dir string) {
	fs := fsType(dir)
	e.Note("dir", dir)
	e.Note("fs_type", fs)
	if w := fsWarning(fs); w != "" {
		e.Note("fs_warning", w)
	}
}
