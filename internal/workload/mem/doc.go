// Package mem holds the built-in memory-bandwidth workloads: mem.stream,
// John McCalpin's STREAM (copy, scale, add, triad over arrays much larger
// than the caches), and mem.mbw, the mbw tool's memcpy, element-by-element
// and block copies. Both allocate, touch and time plain Go slices; in a
// container they see the same memory, so a difference from native points at
// memory limits, page placement or huge-page policy.
package mem
