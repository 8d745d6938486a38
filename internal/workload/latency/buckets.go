package latency

import "math/bits"

// The bucket layout; see the package comment.
const (
	subBits    = 8             // 2^8 = 256 buckets per power of two
	perOctave  = 1 << subBits  // 256
	exactBelow = 2 * perOctave // 512: values below are a bucket each
	// Buckets is the number of buckets: the exact ones, then 256 for each
	// bit length from 10 to 64.
	Buckets = exactBelow + (64-subBits-1)*perOctave // 14,592
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
// package comment: exact up to a length of 9 (below 512), then for each
// longer length n the value shifted right by n-9, which is in [256, 512).
var byLength = func() (t [65]struct {
	base  int32
	shift uint8
}) {
	for n := range t {
		if n <= subBits+1 {
			continue // 0 .. 511: itself
		}
		t[n].shift = uint8(n - subBits - 1)
		t[n].base = int32(exactBelow + (n-subBits-2)*perOctave - perOctave)
	}
	return t
}()

// BucketRange is the smallest value of bucket i and its width, in ns.
func BucketRange(i int) (lo, width uint64) {
	if i < exactBelow {
		return uint64(i), 1
	}
	j := i - exactBelow
	shift := j/perOctave + 1
	return uint64(perOctave+j%perOctave) << shift, 1 << shift
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
