package mem

import (
	"math/rand/v2"
	"testing"
)

// The kernels give, bit for bit, what STREAM's plain loops give, for every
// length around the vector block and with slices that start unaligned.
func TestStreamKernelsMatchPlainLoops(t *testing.T) { checkKernels(t) }

func checkKernels(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 1027} {
		for _, off := range []int{0, 1, 3} {
			x, y := make([]float64, n+off), make([]float64, n+off)
			for i := range x {
				x[i], y[i] = r.NormFloat64()*1e3, r.NormFloat64()
			}
			x, y = x[off:], y[off:]
			got, want := make([]float64, n), make([]float64, n)
			check := func(kernel string) {
				t.Helper()
				for i := range want {
					if got[i] != want[i] {
						t.Fatalf("%s, %d elements from offset %d: element %d is %v, want %v", kernel, n, off, i, got[i], want[i])
					}
				}
			}
			copyKernel(got, x)
			//lint:ignore S1001 the expected values come from the plain loop, not from the copy under test
			for i := range x {
				want[i] = x[i]
			}
			check("copy")
			scaleKernel(got, x, streamScalar)
			for i := range x {
				want[i] = streamScalar * x[i]
			}
			check("scale")
			addKernel(got, x, y)
			for i := range x {
				want[i] = x[i] + y[i]
			}
			check("add")
			triadKernel(got, x, y, streamScalar)
			for i := range x {
				want[i] = x[i] + float64(streamScalar*y[i])
			}
			check("triad")
		}
	}
}
