package net

import (
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestHistogramMatchesSortedValues: percentiles from the histogram are the
// exact nearest-rank percentiles within half a bucket, also above the
// buckets, and the mean is exact.
func TestHistogramMatchesSortedValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h rttHistogram
	var all []time.Duration
	var sum time.Duration
	for i := 0; i < 100000; i++ {
		d := time.Duration(15000 + rng.ExpFloat64()*10000) // 15 µs + a tail
		if i%1000 == 0 {
			d = time.Duration(3+rng.IntN(5)) * time.Millisecond // above the buckets
		}
		h.add(d)
		all = append(all, d)
		sum += d
	}
	slices.Sort(all)
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
		rank := max(0, min(int(float64(len(all))*q+0.999999)-1, len(all)-1))
		want := all[rank]
		got := h.percentile(q)
		if diff := got - want; diff < -rttBucketWidth/2 || diff > rttBucketWidth/2 {
			t.Errorf("p%v = %v, sorted values say %v", q*100, got, want)
		}
	}
	if h.mean() != sum/time.Duration(len(all)) || h.min != all[0] || h.max != all[len(all)-1] {
		t.Errorf("mean %v min %v max %v", h.mean(), h.min, h.max)
	}
}

func TestHistogramDoesNotAllocate(t *testing.T) {
	var h rttHistogram
	if n := testing.AllocsPerRun(1000, func() { h.add(20 * time.Microsecond) }); n != 0 {
		t.Errorf("%v allocations per round trip", n)
	}
}
