package mem

import (
	"testing"

	"golang.org/x/sys/cpu"
)

// Each vector kernel set this CPU has gives the plain loops' results.
func TestStreamKernelSets(t *testing.T) {
	defer func(u bool, b int) { useVector, vectorBlock = u, b }(useVector, vectorBlock)
	for _, set := range []struct {
		name  string
		has   bool
		block int
	}{{"AVX2", cpu.X86.HasAVX2, 16}, {"AVX-512", cpu.X86.HasAVX512F, 32}, {"portable", true, 16}} {
		t.Run(set.name, func(t *testing.T) {
			if !set.has {
				t.Skipf("this CPU has no %s", set.name)
			}
			useVector, vectorBlock = set.name != "portable", set.block
			checkKernels(t)
		})
	}
}
