package gateway

import (
	"math/rand/v2"
	"sort"
	"testing"
	"time"
)

func TestHistogramBuckets(t *testing.T) {
	prev := -1
	for _, d := range []time.Duration{0, 1, 63, 64, 65, 127, 128, 1000, time.Millisecond, time.Second, time.Hour, 1<<63 - 1} {
		i := bucketOf(d)
		if i <= prev || i >= histBuckets {
			t.Errorf("bucket of %d is %d after %d (of %d)", d, i, prev, histBuckets)
		}
		prev = i
		if mid := bucketMid(i); d >= 64 && (float64(mid) < float64(d)*(1-1.0/64) || float64(mid) > float64(d)*(1+1.0/64)) {
			t.Errorf("%d falls in bucket %d, whose middle %d is more than 1/64 away", d, i, mid)
		}
	}
}

func TestHistogramPercentiles(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	var a, b latencyHistogram
	var all []time.Duration
	for i := 0; i < 100000; i++ {
		d := time.Duration(rnd.ExpFloat64()*float64(300*time.Microsecond)) + 20*time.Microsecond
		all = append(all, d)
		if i%2 == 0 {
			a.add(d)
		} else {
			b.add(d)
		}
	}
	a.merge(&b)
	sort.Slice(all, func(i, j int) bool { return all[i] < all[j] })
	var sum time.Duration
	for _, d := range all {
		sum += d
	}
	if a.n != int64(len(all)) || a.mean() != sum/time.Duration(len(all)) || a.min != all[0] || a.max != all[len(all)-1] {
		t.Errorf("n %d mean %v min %v max %v", a.n, a.mean(), a.min, a.max)
	}
	for _, q := range []float64{0, 0.5, 0.9, 0.99, 1} {
		exact := all[max(0, int(float64(len(all))*q+0.999999)-1)]
		got := a.percentile(q)
		if d := float64(got-exact) / float64(exact); d < -1.0/64 || d > 1.0/64 {
			t.Errorf("p%v = %v, exactly %v", q*100, got, exact)
		}
	}
	var empty latencyHistogram
	if empty.percentile(0.5) != 0 || empty.mean() != 0 {
		t.Error("an empty histogram is not 0")
	}
}
