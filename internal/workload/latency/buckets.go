package latency

import "math/bits"

// The bucket layout; see the package comment.
const (
	exactBelow = 256     // values below are a bucket each
	perOctave  = 128     // buckets per power of two outside the fine range
	fineFrom   = 1 << 13 // 8,192 ns: where 128 per power of two grow wider than 64 ns
	fineTo     = 1 << 21 // 2,097,152 ns
	fineShift  = 6       // fine buckets are 1<<6 = 64 ns wide

	lowBase  = exactBelow                              // 2^8 .. 2^13, 128 per power of two
	fineBase = lowBase + 5*perOctave                   // 2^13 .. 2^21, 64 ns wide
	highBase = fineBase + (fineTo-fineFrom)>>fineShift // 2^21 .. 2^64, 128 per power of two
	Buckets  = highBase + (64-21)*perOctave            // 39,040
)

// BucketOf is the bucket of a value in nanoseconds: within the values of
// one bit length the buckets are ns>>shift from a base, both taken from a
// table by that length, so that recording makes no branch and Record is
// small enough to be inlined where it is called.
func BucketOf(ns uint64) int {
	l := &byLength[bits.Len64(ns)]
	return int(l.base) + int(ns>>l.shift)
}

// byLength holds, for each bit length of a value, the layout of the
// package comment: exact below 2^8, 128 buckets to a length up to 2^13,
// 64 ns wide (shift 6) up to 2^21, 128 to a length above.
var byLength = func() (t [65]struct {
	base  int32
	shift uint8
}) {
	for n := range t {
		l := &t[n]
		switch {
		case n <= 8: // 0 .. 255: itself
		case n <= 13: // ns>>shift is in [128, 256)
			l.shift = uint8(n - 8)
			l.base = int32(lowBase + (n-9)*perOctave - perOctave)
		case n <= 21: // (ns-fineFrom)>>6 == ns>>6 - fineFrom>>6
			l.shift = fineShift
			l.base = int32(fineBase - fineFrom>>fineShift)
		default:
			l.shift = uint8(n - 8)
			l.base = int32(highBase + (n-22)*perOctave - perOctave)
		}
	}
	return t
}()

// BucketRange is the smallest value of bucket i and its width, in ns.
func BucketRange(i int) (lo, width uint64) {
	switch {
	case i < lowBase:
		return uint64(i), 1
	case i < fineBase:
		j := i - lowBase
		shift := j/perOctave + 1
		return uint64(perOctave+j%perOctave) << shift, 1 << shift
	case i < highBase:
		return fineFrom + uint64(i-fineBase)<<fineShift, 1 << fineShift
	default:
		j := i - highBase
		shift := j/perOctave + 14
		return uint64(perOctave+j%perOctave) << shift, 1 << shift
	}
}

// BucketMid is the middle of bucket i in nanoseconds: the value a
// percentile falling in it is reported as.
func BucketMid(i int) uint64 {
	lo, w := BucketRange(i)
	return lo + w/2
}

// rank is the nearest rank (1..n) of quantile q (0..1) among n values.
// The 0.999999 rounds up while forgiving a product such as 0.29*100 that
// floating point makes a hair above a whole number.
func rank(n uint64, q float64) uint64 {
	r := uint64(max(float64(n)*q+0.999999, 0))
	return max(1, min(r, n))
}
