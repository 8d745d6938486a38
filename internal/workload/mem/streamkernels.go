package mem

import (
	"fmt"
	"math"
	"sync"
	"time"
)

// The four STREAM kernels, in the order STREAM runs them.
const (
	kernelCopy = iota
	kernelScale
	kernelAdd
	kernelTriad
	numKernels
)

// kernelMetrics names the metric of each kernel.
var kernelMetrics = [numKernels]string{"copy_MBps", "scale_MBps", "add_MBps", "triad_MBps"}

// kernelArrays is how many arrays each kernel moves, as STREAM counts bytes.
var kernelArrays = [numKernels]int{2, 2, 3, 3}

// streamScalar is STREAM's scalar.
const streamScalar = 3.0

// streamArrays are STREAM's arrays a, b and c, cut into one contiguous
// chunk per thread.
type streamArrays struct {
	a, b, c []float64
	chunks  [][2]int // [start, end) of each thread's part
}

// newStreamArrays allocates the arrays and initializes them as STREAM does
// (a = 1, b = 2, c = 0, then a = 2a), each thread touching its own chunk
// first so the pages are placed where that thread runs.
func newStreamArrays(n, threads int) *streamArrays {
	s := &streamArrays{a: make([]float64, n), b: make([]float64, n), c: make([]float64, n)}
	for t := 0; t < threads; t++ {
		// In int64: n*threads overflows an int on 32-bit ARM for large arrays.
		start := int64(n) * int64(t) / int64(threads)
		end := int64(n) * int64(t+1) / int64(threads)
		s.chunks = append(s.chunks, [2]int{int(start), int(end)})
	}
	s.parallel(func(a, b, c []float64) {
		for j := range a {
			a[j], b[j], c[j] = 1, 2, 0
		}
		for j := range a {
			a[j] *= 2
		}
	})
	return s
}

// parallel runs fn on every thread's chunk of a, b and c and waits.
func (s *streamArrays) parallel(fn func(a, b, c []float64)) {
	if len(s.chunks) == 1 {
		fn(s.a, s.b, s.c)
		return
	}
	var wg sync.WaitGroup
	for _, ch := range s.chunks {
		wg.Add(1)
		go func() {
			defer wg.Done()
			fn(s.a[ch[0]:ch[1]], s.b[ch[0]:ch[1]], s.c[ch[0]:ch[1]])
		}()
	}
	wg.Wait()
}

// iterate runs the four kernels once and returns the time of each.
func (s *streamArrays) iterate() [numKernels]time.Duration {
	var t [numKernels]time.Duration
	timed := func(k int, fn func(a, b, c []float64)) {
		start := time.Now()
		s.parallel(fn)
		t[k] = time.Since(start)
	}
	timed(kernelCopy, func(a, _, c []float64) { copyKernel(c, a) })
	timed(kernelScale, func(_, b, c []float64) { scaleKernel(b, c, streamScalar) })
	timed(kernelAdd, func(a, b, c []float64) { addKernel(c, a, b) })
	timed(kernelTriad, func(a, b, c []float64) { triadKernel(a, b, c, streamScalar) })
	return t
}

// streamEpsilon is STREAM's tolerance for double precision.
const streamEpsilon = 1e-13

// check is STREAM's checkSTREAMresults: it replays the kernels on scalars
// for ntimes iterations and compares the mean absolute error of each array
// with the expected value, relative to that value.
func (s *streamArrays) check(ntimes int) error {
	aj, bj, cj := 1.0, 2.0, 0.0
	aj *= 2
	for k := 0; k < ntimes; k++ {
		cj = aj
		bj = streamScalar * cj
		cj = aj + bj
		aj = bj + streamScalar*cj
	}
	for _, arr := range []struct {
		name string
		v    []float64
		want float64
	}{{"a", s.a, aj}, {"b", s.b, bj}, {"c", s.c, cj}} {
		var sum float64
		for _, v := range arr.v {
			sum += math.Abs(v - arr.want)
		}
		avg := sum / float64(len(arr.v))
		if !(math.Abs(avg/arr.want) <= streamEpsilon) { // also catches NaN
			return fmt.Errorf("STREAM validation failed: array %s has mean error %g around the expected %g (relative %g > %g): memory or CPU returned wrong results",
				arr.name, avg, arr.want, math.Abs(avg/arr.want), streamEpsilon)
		}
	}
	return nil
}

// The kernels: the vector ones (streamvec_*.s) on the first multiple of
// vectorBlock elements where the CPU has them, the portable loops on the
// rest and everywhere else.

// copyKernel is STREAM's copy: dst[j] = src[j].
func copyKernel(dst, src []float64) {
	j := 0
	if useVector {
		j = len(src) / vectorBlock * vectorBlock
		copyVector(dst[:j], src[:j])
	}
	dst, src = dst[j:len(src)], src[j:]
	//lint:ignore S1001 STREAM's copy kernel is this loop (the tail past the vector blocks); copy would call memmove
	for i, v := range src {
		dst[i] = v
	}
}

// scaleKernel is STREAM's scale: dst[j] = s * src[j].
func scaleKernel(dst, src []float64, s float64) {
	j := 0
	if useVector {
		j = len(src) / vectorBlock * vectorBlock
		scaleVector(dst[:j], src[:j], s)
	}
	dst, src = dst[j:len(src)], src[j:]
	for i, v := range src {
		dst[i] = s * v
	}
}

// addKernel is STREAM's add: dst[j] = x[j] + y[j].
func addKernel(dst, x, y []float64) {
	j := 0
	if useVector {
		j = len(x) / vectorBlock * vectorBlock
		addVector(dst[:j], x[:j], y[:j])
	}
	dst, x, y = dst[j:len(x)], x[j:], y[j:len(x)]
	for i, v := range x {
		dst[i] = v + y[i]
	}
}

// triadKernel is STREAM's triad: dst[j] = x[j] + s * y[j].
func triadKernel(dst, x, y []float64, s float64) {
	j := 0
	if useVector {
		j = len(x) / vectorBlock * vectorBlock
		triadVector(dst[:j], x[:j], y[:j], s)
	}
	dst, x, y = dst[j:len(x)], x[j:], y[j:len(x)]
	for i, v := range x {
		dst[i] = v + float64(s*y[i]) // not fused, as the vector kernels
	}
}
