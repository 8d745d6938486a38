package latency

import (
	"math"
	"testing"
	"time"
)

// benchValues are latencies spread over 1 µs to 10 ms, so the branch and
// the bucket touched change from one record to the next as in a real run.
func benchValues() []time.Duration {
	return xorshiftValues(func(x uint64) time.Duration {
		return time.Microsecond + time.Duration(x%uint64(10*time.Millisecond))
	})
}

// xorshiftValues are 1024 latencies, each made by latency from the next
// number of one fixed xorshift sequence, so every run records the same.
func xorshiftValues(latency func(x uint64) time.Duration) []time.Duration {
	v := make([]time.Duration, 1024)
	x := uint64(88172645463325252)
	for i := range v {
		x ^= x << 13
		x ^= x >> 7
		x ^= x << 17
		v[i] = latency(x)
	}
	return v
}

func BenchmarkRecord(b *testing.B) {
	v := benchValues()
	var h Histogram
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Record(v[i&1023])
	}
}

func BenchmarkSharedRecord(b *testing.B) {
	v := benchValues()
	var h Shared
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Record(v[i&1023])
	}
}

// clusteredValues are round trips as a loaded host gives them: 40 µs and
// an exponential tail of 20 µs mean.
func clusteredValues() []time.Duration {
	return xorshiftValues(func(x uint64) time.Duration {
		u := float64(x>>11) / (1 << 53)
		return 40*time.Microsecond + time.Duration(-math.Log(1-u)*float64(20*time.Microsecond))
	})
}

func BenchmarkRecordClustered(b *testing.B) {
	v := clusteredValues()
	var h Histogram
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		h.Record(v[i&1023])
	}
}
