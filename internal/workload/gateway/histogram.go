package gateway

import (
	"math/bits"
	"time"
)

// latencyHistogram counts request latencies without allocating: log-linear
// buckets, 64 per power of two, so a percentile is within 1/64 (1.6 %) of
// the true value from 64 ns to hours. Each connection keeps one and they
// are merged at the end, so counting takes no lock and no garbage is made
// while the load runs.
type latencyHistogram struct {
	buckets  [histBuckets]uint32
	n        int64
	sum      time.Duration
	min, max time.Duration
}

const (
	histSubBits = 6 // 64 buckets per power of two
	histSub     = 1 << histSubBits
	histBuckets = (64 - histSubBits + 1) * histSub
)

// bucketOf is the bucket of d nanoseconds: values below 64 have one each;
// above, the power of two and the next 6 bits pick it.
func bucketOf(d time.Duration) int {
	v := uint64(max(d, 0))
	if v < histSub {
		return int(v)
	}
	shift := bits.Len64(v) - histSubBits - 1
	return (shift+1)*histSub + int(v>>shift) - histSub
}

// bucketMid is the middle of bucket i in nanoseconds.
func bucketMid(i int) time.Duration {
	if i < histSub {
		return time.Duration(i)
	}
	shift := i/histSub - 1
	low := uint64(i%histSub+histSub) << shift
	return time.Duration(low + (uint64(1)<<shift)/2)
}

func (h *latencyHistogram) add(d time.Duration) {
	if h.n == 0 || d < h.min {
		h.min = d
	}
	if d > h.max {
		h.max = d
	}
	h.n++
	h.sum += d
	h.buckets[bucketOf(d)]++
}

// merge adds o's counts to h.
func (h *latencyHistogram) merge(o *latencyHistogram) {
	if o.n == 0 {
		return
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
	for i, c := range o.buckets {
		h.buckets[i] += c
	}
}

// mean is the mean latency (0 when empty).
func (h *latencyHistogram) mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// percentile is the nearest-rank q-quantile (q in 0..1): the middle of its
// bucket, kept within the smallest and largest latency seen.
func (h *latencyHistogram) percentile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	rank := int64(float64(h.n)*q+0.999999) - 1
	rank = max(0, min(rank, h.n-1))
	var seen int64
	for i, c := range h.buckets {
		seen += int64(c)
		if seen > rank {
			return max(h.min, min(bucketMid(i), h.max))
		}
	}
	return h.max
}
