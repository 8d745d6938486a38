package mqtt

import (
	"math"
	"time"

	"github.com/boxtax/boxtax/internal/workload/latency"
)

// histogram counts latencies in nanoseconds (see package latency for its
// precision), with the sum of squares for mqtt-benchmark's standard
// deviation. Recording allocates nothing, so no garbage collection runs
// because of it while messages are timed. One per client.
type histogram struct {
	latency.Histogram
	sumSq float64
}

func (h *histogram) record(ns int64) {
	ns = max(ns, 0)
	h.Record(time.Duration(ns))
	f := float64(ns)
	h.sumSq += f * f
}

func (h *histogram) merge(o *histogram) {
	h.Merge(&o.Histogram)
	h.sumSq += o.sumSq
}

func (h *histogram) mean() float64 { return float64(h.Sum()) / float64(h.Count()) }

// std is the sample standard deviation (n-1), as mqtt-benchmark reports.
func (h *histogram) std() float64 {
	if h.Count() < 2 {
		return 0
	}
	n, sum := float64(h.Count()), float64(h.Sum())
	v := (h.sumSq - sum*sum/n) / (n - 1)
	return math.Sqrt(max(v, 0))
}

// quantile is the value at quantile q (0..1) by nearest rank, in ns.
func (h *histogram) quantile(q float64) float64 {
	if h.Count() == 0 {
		return math.NaN()
	}
	return float64(h.Quantile(q))
}
