package ingest

import (
	"math/bits"
	"slices"
	"sync/atomic"
	"time"
)

// histogram counts durations in log-linear buckets without allocating and
// without a lock: 128 exact buckets of 1 ns, then 128 buckets per power of
// two, so a value is known within 0.4 % (half a bucket) from nanoseconds to
// hours. Many goroutines may add at once.
type histogram struct {
	counts [histBuckets]atomic.Uint64
}

const (
	histSub     = 128    // buckets per power of two
	histShifts  = 64 - 7 // powers of two above the exact range
	histBuckets = histSub + histShifts*histSub
)

// bucketOf is the bucket of a duration in nanoseconds.
func bucketOf(ns uint64) int {
	if ns < histSub {
		return int(ns)
	}
	shift := bits.Len64(ns) - 8 // ns>>shift is in [128, 256)
	return histSub + shift*histSub + int(ns>>shift) - histSub
}

// bucketRange is the smallest value of bucket i and its width, in ns.
func bucketRange(i int) (lo, width uint64) {
	if i < histSub {
		return uint64(i), 1
	}
	shift := (i - histSub) / histSub
	lo = uint64(histSub+(i-histSub)%histSub) << shift
	return lo, 1 << shift
}

// add counts one duration (negative ones as 0).
func (h *histogram) add(d time.Duration) {
	h.counts[bucketOf(uint64(max(d, 0)))].Add(1)
}

// snapshot copies the counts: the non-empty buckets by index.
func (h *histogram) snapshot() map[int]uint64 {
	out := map[int]uint64{}
	for i := range h.counts {
		if c := h.counts[i].Load(); c > 0 {
			out[i] = c
		}
	}
	return out
}

// counts is a histogram at rest: bucket index to count. Histograms of
// several nodes merge by adding their counts.
type counts map[int]uint64

func (c counts) merge(o map[int]uint64) {
	for i, n := range o {
		c[i] += n
	}
}

// total is the number of values counted.
func (c counts) total() uint64 {
	var n uint64
	for _, k := range c {
		n += k
	}
	return n
}

// quantile is the nearest-rank q-quantile (0 < q <= 1): the middle of its
// bucket; 0 when nothing was counted.
func (c counts) quantile(q float64) time.Duration {
	n := c.total()
	if n == 0 {
		return 0
	}
	rank := uint64(float64(n)*q + 0.999999)
	rank = max(1, min(rank, n))
	idx := make([]int, 0, len(c))
	for i := range c {
		idx = append(idx, i)
	}
	slices.Sort(idx)
	var seen uint64
	for _, i := range idx {
		seen += c[i]
		if seen >= rank {
			lo, w := bucketRange(i)
			return time.Duration(lo + w/2)
		}
	}
	return 0
}
