// Package disk holds the built-in storage workloads: disk.seq, sequential
// write, read and rewrite of one large file in the manner of fio and
// bonnie++, and disk.rand, random 4 KiB reads and writes as sysbench fileio.
//
// Both write under the run's scratch directory, which in a container may be
// the container's own layered filesystem (overlayfs, fuse-overlayfs) or a
// bind-mounted volume: that choice is usually the whole container overhead
// for storage, so every run notes the filesystem type it wrote on and how it
// kept the page cache from answering the reads (O_DIRECT when the
// filesystem allows it, otherwise fadvise and drop_caches).
package disk
