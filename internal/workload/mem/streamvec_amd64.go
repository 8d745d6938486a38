package mem

import "golang.org/x/sys/cpu"

// vectorBlock is how many elements the vector kernels take at a time.
const vectorBlock = 16

// useVector says whether the AVX2 kernels of streamvec_amd64.s run: the Go
// compiler does not vectorize, and where the CPU has AVX2 C compiled with
// -march=native does.
var useVector = cpu.X86.HasAVX2

func copyVector(dst, src []float64)              { copyAVX2(dst, src) }
func scaleVector(dst, src []float64, s float64)  { scaleAVX2(dst, src, s) }
func addVector(dst, x, y []float64)              { addAVX2(dst, x, y) }
func triadVector(dst, x, y []float64, s float64) { triadAVX2(dst, x, y, s) }

//go:noescape
func copyAVX2(dst, src []float64)

//go:noescape
func scaleAVX2(dst, src []float64, s float64)

//go:noescape
func addAVX2(dst, x, y []float64)

//go:noescape
func triadAVX2(dst, x, y []float64, s float64)
