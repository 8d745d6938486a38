package ingest

import (
	"math"
	"testing"
	"time"
)

func TestBucketsCoverEveryValueWithinHalfAPercent(t *testing.T) {
	for _, ns := range []uint64{0, 1, 127, 128, 129, 255, 256, 1000, 12345, 1e6, 123456789, 1e12, math.MaxUint64 >> 1, math.MaxUint64} {
		i := bucketOf(ns)
		if i < 0 || i >= histBuckets {
			t.Fatalf("%d ns: bucket %d out of range", ns, i)
		}
		lo, w := bucketRange(i)
		if ns < lo || ns-lo >= w {
			t.Errorf("%d ns: bucket %d is [%d, %d+%d)", ns, i, lo, lo, w)
		}
		if ns >= 128 && float64(w)/2 > 0.004*float64(ns) {
			t.Errorf("%d ns: half a bucket (%d) is more than 0.4 %%", ns, w/2)
		}
	}
}

func TestQuartilesOfKnownValues(t *testing.T) {
	var h histogram
	for v := 1; v <= 1000; v++ { // 1 ms to 1000 ms
		h.add(time.Duration(v) * time.Millisecond)
	}
	c := counts(h.snapshot())
	if c.total() != 1000 {
		t.Fatalf("counted %d values, want 1000", c.total())
	}
	for _, tc := range []struct {
		q    float64
		want time.Duration
	}{{0.25, 250 * time.Millisecond}, {0.5, 500 * time.Millisecond}, {0.75, 750 * time.Millisecond}, {1, time.Second}} {
		got := c.quantile(tc.q)
		if math.Abs(float64(got-tc.want)) > 0.004*float64(tc.want) {
			t.Errorf("quantile %v = %v, want %v within 0.4 %%", tc.q, got, tc.want)
		}
	}
	if got := (counts{}).quantile(0.5); got != 0 {
		t.Errorf("quantile of nothing = %v, want 0", got)
	}
	// Two nodes' histograms merge into the histogram of all their values.
	m := counts{}
	m.merge(c)
	m.merge(c)
	if m.total() != 2000 || m.quantile(0.5) != c.quantile(0.5) {
		t.Errorf("merged: %d values, median %v; want 2000 and %v", m.total(), m.quantile(0.5), c.quantile(0.5))
	}
}
