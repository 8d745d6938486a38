package latency

import (
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"
)

// The tests below are the four workloads' former histogram tests, each
// with its own precision claim, run against the one histogram.

// From gateway: buckets rise with the value, and above 64 ns a bucket's
// middle is within 1/64 of every value in it.
func TestHistogramBuckets(t *testing.T) {
	prev := -1
	for _, d := range []time.Duration{0, 1, 63, 64, 65, 127, 128, 1000, time.Millisecond, time.Second, time.Hour, 1<<63 - 1} {
		i := BucketOf(uint64(d))
		if i <= prev || i >= Buckets {
			t.Errorf("bucket of %d is %d after %d (of %d)", d, i, prev, Buckets)
		}
		prev = i
		if mid := BucketMid(i); d >= 64 && (float64(mid) < float64(d)*(1-1.0/64) || float64(mid) > float64(d)*(1+1.0/64)) {
			t.Errorf("%d falls in bucket %d, whose middle %d is more than 1/64 away", d, i, mid)
		}
	}
}

// From gateway: percentiles of merged histograms within 1/64, exact mean,
// minimum and maximum.
func TestHistogramPercentiles(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var a, b Histogram
	var all []time.Duration
	for i := 0; i < 100000; i++ {
		d := time.Duration(rnd.ExpFloat64()*float64(300*time.Microsecond)) + 20*time.Microsecond
		all = append(all, d)
		if i%2 == 0 {
			a.Record(d)
		} else {
			b.Record(d)
		}
	}
	a.Merge(&b)
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	var sum time.Duration
	for _, d := range all {
		sum += d
	}
	if a.Count() != int64(len(all)) || a.Mean() != sum/time.Duration(len(all)) || a.Min() != all[0] || a.Max() != all[len(all)-1] {
		t.Errorf("n %d mean %v min %v max %v", a.Count(), a.Mean(), a.Min(), a.Max())
	}
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 1} {
		exact := all[max(0, int(float64(len(all))*q+0.999999)-1)]
		got := a.Quantile(q)
		if d := float64(got-exact) / float64(exact); d < -1.0/64 || d > 1.0/64 {
			t.Errorf("p%v = %v, exactly %v", q*100, got, exact)
		}
	}
	var empty Histogram
	if empty.Quantile(0.5) != 0 || empty.Mean() != 0 {
		t.Error("an empty histogram is not 0")
	}
}

// From ingest: every value lies in its bucket, and above 128 ns half a
// bucket is at most 0.4 % of it.
func TestBucketsCoverEveryValueWithinHalfAPercent(t *testing.T) {
	for _, ns := range []uint64{0, 1, 127, 128, 129, 255, 256, 1000, 12345, 1e6, 123456789, 1e12, math.MaxUint64 >> 1, math.MaxUint64} {
		i := BucketOf(ns)
		if i < 0 || i >= Buckets {
			t.Fatalf("%d ns: bucket %d out of range", ns, i)
		}
		lo, w := BucketRange(i)
		if ns < lo || ns-lo >= w {
			t.Errorf("%d ns: bucket %d is [%d, %d+%d)", ns, i, lo, lo, w)
		}
		if ns >= 128 && float64(w)/2 > 0.004*float64(ns) {
			t.Errorf("%d ns: half a bucket (%d) is more than 0.4 %%", ns, w/2)
		}
	}
}

// From ingest: quartiles of counts taken from a Shared histogram, and
// counts merged.
func TestQuartilesOfKnownValues(t *testing.T) {
	var h Shared
	for v := 1; v <= 1000; v++ { // 1 ms to 1000 ms
		h.Record(time.Duration(v) * time.Millisecond)
	}
	c := h.Counts()
	if c.Total() != 1000 {
		t.Fatalf("counted %d values, want 1000", c.Total())
	}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.25, 250 * time.Millisecond}, {0.5, 500 * time.Millisecond}, {0.75, 750 * time.Millisecond}, {1, time.Second}} {
		got := c.Quantile(tc.q)
		if math.Abs(float64(got-tc.want)) > 0.004*float64(tc.want) {
			t.Errorf("quantile %v = %v, want %v within 0.4 %%", tc.q, got, tc.want)
		}
	}
	if got := (Counts{}).Quantile(0.5); got != 0 {
		t.Errorf("quantile of nothing = %v, want 0", got)
	}
	// Two nodes' histograms merge into the histogram of all their values.
	m := Counts{}
	m.Merge(c)
	m.Merge(c)
	if m.Total() != 2000 || m.Quantile(0.5) != c.Quantile(0.5) {
		t.Errorf("merged: %d values, median %v; want 2000 and %v", m.Total(), m.Quantile(0.5), c.Quantile(0.5))
	}
}

// From mqtt: bucket middles within 0.5 % (+1 ns) below 2^41 ns, and a
// bucket for every value above. Its mean, quantiles and standard deviation
// are tested in mqtt (TestHistogram).
func TestBucketMiddles(t *testing.T) {
	for _, ns := range []int64{0, 1, 255, 256, 257, 1 << 20, 1<<41 - 1, 1 << 50} {
		i := BucketOf(uint64(ns))
		if i < 0 || i >= Buckets {
			t.Fatalf("BucketOf(%d) = %d", ns, i)
		}
		if ns < 1<<41 && math.Abs(float64(BucketMid(i))-float64(ns)) > float64(ns)/200+1 {
			t.Errorf("BucketMid(BucketOf(%d)) = %v", ns, BucketMid(i))
		}
	}
}

// From net: percentiles are the exact nearest-rank percentiles within half
// a bucket (1/512 of the value, 0.2 %), also with values above 2 ms among
// them, and the mean is exact.
func TestHistogramMatchesSortedValues(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var h Histogram
	var all []time.Duration
	var sum time.Duration
	for i := 0; i < 100000; i++ {
		d := time.Duration(15000 + rng.ExpFloat64()*10000) // 15 µs + a tail
		if i%1000 == 0 {
			d = time.Duration(3+rng.IntN(5)) * time.Millisecond // above the buckets
		}
		h.Record(d)
		all = append(all, d)
		sum += d
	}
	slices.Sort(all)
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 0.999, 1} {
		rank := max(0, min(int(float64(len(all))*q+0.999999)-1, len(all)-1))
		want := all[rank]
		got := h.Quantile(q)
		if tol := want/512 + 1; got-want < -tol || got-want > tol {
			t.Errorf("p%v = %v, sorted values say %v", q*100, got, want)
		}
	}
	if h.Mean() != sum/time.Duration(len(all)) || h.Min() != all[0] || h.Max() != all[len(all)-1] {
		t.Errorf("mean %v min %v max %v", h.Mean(), h.Min(), h.Max())
	}
}

func TestHistogramDoesNotAllocate(t *testing.T) {
	var h Histogram
	if n := testing.AllocsPerRun(1000, func() { h.Record(20 * time.Microsecond) }); n != 0 {
		t.Errorf("%v allocations per round trip", n)
	}
	var s Shared
	if n := testing.AllocsPerRun(1000, func() { s.Record(20 * time.Microsecond) }); n != 0 {
		t.Errorf("%v allocations per shared record", n)
	}
}

// TestBucketsAreContiguous: every value from 0 up through the fine range
// and at every power of two above falls in the bucket whose range holds
// it, and the ranges follow one another without a gap.
func TestBucketsAreContiguous(t *testing.T) {
	var next uint64
	for i := 0; i < Buckets; i++ {
		lo, w := BucketRange(i)
		if lo != next {
			t.Fatalf("bucket %d starts at %d, the one before ended at %d", i, lo, next)
		}
		if BucketOf(lo) != i || BucketOf(lo+w-1) != i {
			t.Fatalf("bucket %d is [%d, %d+%d) but %d is in %d and %d in %d", i, lo, lo, w, lo, BucketOf(lo), lo+w-1, BucketOf(lo+w-1))
		}
		next = lo + w
	}
	if next != 0 { // wrapped: the last bucket ends at 2^64
		t.Errorf("the buckets end at %d, not at 2^64", next)
	}
}
