//go:build !amd64

package mem

// vectorBlock is how many elements the vector kernels take at a time.
const vectorBlock = 16

// useVector is false where there are no vector kernels: the portable
// loops of streamkernels.go run.
const useVector = false

func copyAVX2(dst, src []float64)              { panic("no vector kernels on this GOARCH") }
func scaleAVX2(dst, src []float64, s float64)  { panic("no vector kernels on this GOARCH") }
func addAVX2(dst, x, y []float64)              { panic("no vector kernels on this GOARCH") }
func triadAVX2(dst, x, y []float64, s float64) { panic("no vector kernels on this GOARCH") }
