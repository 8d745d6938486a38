package net

import "time"

// rttHistogram counts round-trip times without allocating while it counts:
// 100 ns buckets up to 2 ms, exact values above (rare, kept in a list). A
// slice of every round trip, grown as it fills, made the garbage collector
// run in the middle of the measurement.
type rttHistogram struct {
	buckets  [rttBuckets]uint32
	over     []time.Duration // above the last bucket
	n        int
	sum      time.Duration
	min, max time.Duration
}

const (
	rttBucketWidth = 100 * time.Nanosecond
	rttBuckets     = 20000 // up to 2 ms
)

func (h *rttHistogram) add(d time.Duration) {
	if h.n == 0 || d < h.min {
		h.min = d
	}
	if d > h.max {
		h.max = d
	}
	h.n++
	h.sum += d
	if i := int(d / rttBucketWidth); i < rttBuckets {
		h.buckets[i]++
		return
	}
	h.over = append(h.over, d)
}

// mean is the mean round trip.
func (h *rttHistogram) mean() time.Duration { return h.sum / time.Duration(max(h.n, 1)) }

// percentile is the nearest-rank percentile: the middle of its bucket, or
// the exact value above the buckets; within 50 ns below 2 ms.
func (h *rttHistogram) percentile(q float64) time.Duration {
	rank := int(float64(h.n)*q+0.999999) - 1
	rank = max(0, min(rank, h.n-1))
	seen := 0
	for i, c := range h.buckets {
		seen += int(c)
		if seen > rank {
			mid := time.Duration(i)*rttBucketWidth + rttBucketWidth/2
			return max(h.min, min(mid, h.max))
		}
	}
	over := append([]time.Duration(nil), h.over...)
	for i := 1; i < len(over); i++ { // few: insertion sort
		for j := i; j > 0 && over[j] < over[j-1]; j-- {
			over[j], over[j-1] = over[j-1], over[j]
		}
	}
	return over[rank-seen]
}
