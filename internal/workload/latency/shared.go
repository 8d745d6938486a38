package latency

import (
	"maps"
	"slices"
	"sync/atomic"
	"time"
)

// Shared is a histogram many goroutines record into at once, each count
// an atomic add: an HTTP server's handlers, a fleet of devices. It keeps
// only the counts; Counts takes them out to merge, send or read.
type Shared struct {
	counts [Buckets]atomic.Uint64
}

// Record counts one latency (a negative one as 0).
func (s *Shared) Record(d time.Duration) {
	s.counts[BucketOf(uint64(max(d, 0)))].Add(1)
}

// Counts copies the non-empty buckets' counts.
func (s *Shared) Counts() Counts {
	out := Counts{}
	for i := range s.counts {
		if c := s.counts[i].Load(); c > 0 {
			out[i] = c
		}
	}
	return out
}

// Counts is a histogram at rest: bucket index to count, as a node sends
// it. Several merge by adding their counts.
type Counts map[int]uint64

// Merge adds o's counts to c.
func (c Counts) Merge(o Counts) {
	for i, n := range o {
		c[i] += n
	}
}

// Total is the number of values counted.
func (c Counts) Total() uint64 {
	var n uint64
	for _, k := range c {
		n += k
	}
	return n
}

// Quantile is the nearest-rank q-quantile (q in 0..1): the middle of its
// bucket; 0 when nothing was counted.
func (c Counts) Quantile(q float64) time.Duration {
	n := c.Total()
	if n == 0 {
		return 0
	}
	r := rank(n, q)
	var seen uint64
	for _, i := range slices.Sorted(maps.Keys(c)) {
		if seen += c[i]; seen >= r {
			return time.Duration(BucketMid(i))
		}
	}
	return 0
}
