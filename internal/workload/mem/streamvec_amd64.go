package mem

import "golang.org/x/sys/cpu"

// useVector and vectorBlock say whether the vector kernels of
// streamvec_amd64.s run, and how many elements they take at a time: the Go
// compiler does not vectorize, and C compiled with -march=native does, with
// AVX-512 where the CPU has it (gcc 12 on this project's EPYC VM uses zmm
// registers), else AVX2.
var useVector, vectorBlock = pickVector()

func pickVector() (bool, int) {
	switch {
	case cpu.X86.HasAVX512F:
		return true, 32
	case cpu.X86.HasAVX2:
		return true, 16
	}
	return false, 16
}

func copyVector(dst, src []float64) {
	if vectorBlock == 32 {
		copyAVX512(dst, src)
	} else {
		copyAVX2(dst, src)
	}
}

func scaleVector(dst, src []float64, s float64) {
	if vectorBlock == 32 {
		scaleAVX512(dst, src, s)
	} else {
		scaleAVX2(dst, src, s)
	}
}

func addVector(dst, x, y []float64) {
	if vectorBlock == 32 {
		addAVX512(dst, x, y)
	} else {
		addAVX2(dst, x, y)
	}
}

func triadVector(dst, x, y []float64, s float64) {
	if vectorBlock == 32 {
		triadAVX512(dst, x, y, s)
	} else {
		triadAVX2(dst, x, y, s)
	}
}

//go:noescape
func copyAVX2(dst, src []float64)

//go:noescape
func scaleAVX2(dst, src []float64, s float64)

//go:noescape
func addAVX2(dst, x, y []float64)

//go:noescape
func triadAVX2(dst, x, y []float64, s float64)

//go:noescape
func copyAVX512(dst, src []float64)

//go:noescape
func scaleAVX512(dst, src []float64, s float64)

//go:noescape
func addAVX512(dst, x, y []float64)

//go:noescape
func triadAVX512(dst, x, y []float64, s float64)
