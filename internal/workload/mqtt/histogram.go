package mqtt

import (
	"math"
	"math/bits"
)

// Latency histogram: values below 256 ns exactly, above in 128 buckets per
// power of two (under 0.8 % wide, 0.4 % from their middle), up to 2^41 ns
// (about 36 minutes). Recording allocates nothing, so no garbage collection
// runs because of it while messages are timed.
const (
	histExact   = 256
	histSub     = 128
	histBuckets = histExact + 34*histSub
)

// histogram counts latencies in nanoseconds, with their exact sum and sum
// of squares for the mean and standard deviation. Counts are 32-bit, 18 KiB
// a histogram, one per client: 4 billion messages in one bucket would take
// a client 11 hours at 100,000 messages/s.
type histogram struct {
	counts [histBuckets]uint32
	n      uint64
	sum    float64
	sumSq  float64
}

func bucketOf(ns int64) int {
	if ns < histExact {
		return int(max(ns, 0))
	}
	e := bits.Len64(uint64(ns)) - 8 // >= 1
	m := int(uint64(ns) >> e)       // 128..255
	i := histExact + (e-1)*histSub + m - histSub
	return min(i, histBuckets-1)
}

// bucketMid is the middle of bucket i in nanoseconds.
func bucketMid(i int) float64 {
	if i < histExact {
		return float64(i)
	}
	e := (i-histExact)/histSub + 1
	m := (i-histExact)%histSub + histSub
	lo := float64(uint64(m) << e)
	return lo + float64(uint64(1)<<e)/2
}

func (h *histogram) record(ns int64) {
	h.counts[bucketOf(ns)]++
	h.n++
	f := float64(ns)
	h.sum += f
	h.sumSq += f * f
}

func (h *histogram) merge(o *histogram) {
	for i, c := range o.counts {
		h.counts[i] += c
	}
	h.n += o.n
	h.sum += o.sum
	h.sumSq += o.sumSq
}

func (h *histogram) mean() float64 { return h.sum / float64(h.n) }

// std is the sample standard deviation (n-1), as mqtt-benchmark reports.
func (h *histogram) std() float64 {
	if h.n < 2 {
		return 0
	}
	n := float64(h.n)
	v := (h.sumSq - h.sum*h.sum/n) / (n - 1)
	return math.Sqrt(max(v, 0))
}

// quantile is the value at quantile q (0..1) by nearest rank: exact below
// 256 ns, the middle of its bucket above.
func (h *histogram) quantile(q float64) float64 {
	if h.n == 0 {
		return math.NaN()
	}
	rank := uint64(math.Ceil(q * float64(h.n)))
	rank = max(rank, 1)
	var seen uint64
	for i, c := range h.counts {
		if seen += uint64(c); seen >= rank {
			return bucketMid(i)
		}
	}
	return bucketMid(histBuckets - 1)
}
