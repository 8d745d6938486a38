//go:build !amd64

package mem

// useVector is false where there are no vector kernels: the portable
// loops of streamkernels.go run.
const (
	useVector   = false
	vectorBlock = 16
)

func copyVector(dst, src []float64)              { panic("no vector kernels on this GOARCH") }
func scaleVector(dst, src []float64, s float64)  { panic("no vector kernels on this GOARCH") }
func addVector(dst, x, y []float64)              { panic("no vector kernels on this GOARCH") }
func triadVector(dst, x, y []float64, s float64) { panic("no vector kernels on this GOARCH") }
