package latency

import "time"

// Histogram counts latencies from one goroutine: each connection, client
// or flow keeps its own and they are merged at the end, so recording takes
// no lock. The zero value is empty and ready. Counts are 32-bit: 4 billion
// values in one bucket would take 11 hours at 100,000 a second.
type Histogram struct {
	counts   [Buckets]uint32
	n        int64
	sum      time.Duration
	min, max time.Duration
}

// Record counts one latency (a negative one as 0).
func (h *Histogram) Record(d time.Duration) {
	d = max(d, 0)
	if h.n == 0 || d < h.min {
		h.min = d
	}
	if d > h.max {
		h.max = d
	}
	h.n++
	h.sum += d
	h.counts[BucketOf(uint64(d))]++
}

// Merge adds o's values to h.
func (h *Histogram) Merge(o *Histogram) {
	if o.n == 0 {
		return
	}
	if h.n == 0 || o.min < h.min {
		h.min = o.min
	}
	h.max = max(h.max, o.max)
	h.n += o.n
	h.sum += o.sum
	for i, c := range o.counts {
		h.counts[i] += c
	}
}

// Count is the number of values recorded.
func (h *Histogram) Count() int64 { return h.n }

// Sum is the exact sum of the values recorded.
func (h *Histogram) Sum() time.Duration { return h.sum }

// Min and Max are the smallest and largest value recorded (0 when empty).
func (h *Histogram) Min() time.Duration { return h.min }

func (h *Histogram) Max() time.Duration { return h.max }

// Mean is the mean of the values, rounded down to the nanosecond (0 when
// empty).
func (h *Histogram) Mean() time.Duration {
	if h.n == 0 {
		return 0
	}
	return h.sum / time.Duration(h.n)
}

// Quantile is the nearest-rank q-quantile (q in 0..1): the middle of its
// bucket, kept within the smallest and largest value; 0 when empty. The
// first and last rank are the smallest and largest value, known exactly.
func (h *Histogram) Quantile(q float64) time.Duration {
	if h.n == 0 {
		return 0
	}
	r := rank(uint64(h.n), q)
	switch r {
	case 1:
		return h.min
	case uint64(h.n):
		return h.max
	}
	var seen uint64
	for i, c := range h.counts {
		if seen += uint64(c); seen >= r {
			return max(h.min, min(time.Duration(BucketMid(i)), h.max))
		}
	}
	return h.max
}
