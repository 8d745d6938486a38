package mem

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// Both kernel sets this CPU may run give the plain loops' results.
func TestStreamKernelSets(t *testing.T) {
	defer func(u bool) { useVector = u }(useVector)
	for _, set := range []struct {
		name   string
		has    bool
		vector bool
	}{{"AVX2", cpu.X86.HasAVX2, true}, {"portable", true, false}} {
		t.Run(set.name, func(t *testing.T) {
			if !set.has {
				t.Skipf("this CPU has no %s", set.name)
			}
			useVector = set.vector
			checkKernels(t)
		})
	}
}

// BenchmarkStreamKernelSets compares the kernel sets on STREAM-sized
// arrays, in the bytes per second STREAM counts:
//
//	taskset -c 0 go test -run X -bench KernelSets -benchtime 10x ./internal/workload/mem
func BenchmarkStreamKernelSets(b *testing.B) {
	defer func(u bool) { useVector = u }(useVector)
	const n = 20_000_000
	s := newStreamArrays(n, 1)
	for _, set := range []struct {
		name   string
		has    bool
		vector bool
	}{{"portable", true, false}, {"AVX2", cpu.X86.HasAVX2, true}} {
		if !set.has {
			continue
		}
		useVector = set.vector
		b.Run(set.name+"/copy", func(b *testing.B) {
			b.SetBytes(16 * n)
			for range b.N {
				copyKernel(s.c, s.a)
			}
		})
		b.Run(set.name+"/scale", func(b *testing.B) {
			b.SetBytes(16 * n)
			for range b.N {
				scaleKernel(s.b, s.c, streamScalar)
			}
		})
		b.Run(set.name+"/triad", func(b *testing.B) {
			b.SetBytes(24 * n)
			for range b.N {
				triadKernel(s.a, s.b, s.c, streamScalar)
			}
		})
	}
}
