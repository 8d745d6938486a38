package hostimage

import (
	"debug/elf"
	"runtime"
	"slices"
	"testing"
)

// TestMachineNames checks the one table of ELF machine names against what
// each consumer expects of it, and GOARCH against the running binary.
func TestMachineNames(t *testing.T) {
	tests := []struct {
		m                        elf.Machine
		c                        elf.Class
		goarch, triplet, platfrm string
	}{
		{elf.EM_X86_64, elf.ELFCLASS64, "amd64", "x86_64-linux-gnu", "x86_64"},
		{elf.EM_AARCH64, elf.ELFCLASS64, "arm64", "aarch64-linux-gnu", "aarch64"},
		{elf.EM_ARM, elf.ELFCLASS32, "arm", "arm-linux-gnueabihf", ""},
		{elf.EM_386, elf.ELFCLASS32, "386", "i386-linux-gnu", "i686"},
		{elf.EM_RISCV, elf.ELFCLASS64, "riscv64", "riscv64-linux-gnu", ""},
		{elf.EM_RISCV, elf.ELFCLASS32, "riscv64", "", ""},
		{elf.EM_PPC64, elf.ELFCLASS64, "", "powerpc64le-linux-gnu", ""},
		{elf.EM_MIPS, elf.ELFCLASS32, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.m.String()+"/"+tt.c.String(), func(t *testing.T) {
			if got := GOARCH(tt.m); got != tt.goarch {
				t.Errorf("GOARCH = %q, want %q", got, tt.goarch)
			}
			if got := multiarchTriplet(tt.m, tt.c); got != tt.triplet {
				t.Errorf("multiarchTriplet = %q, want %q", got, tt.triplet)
			}
			if got := platform(tt.m); got != tt.platfrm {
				t.Errorf("platform = %q, want %q", got, tt.platfrm)
			}
		})
	}
	if !slices.Contains(hwcapsDirs(elf.EM_X86_64), "glibc-hwcaps/x86-64-v3") || hwcapsDirs(elf.EM_AARCH64) != nil {
		t.Errorf("hwcapsDirs: x86-64 %v, aarch64 %v", hwcapsDirs(elf.EM_X86_64), hwcapsDirs(elf.EM_AARCH64))
	}
	f, err := elf.Open("/proc/self/exe")
	if err != nil {
		t.Skipf("the test binary is not readable as ELF: %v", err)
	}
	defer f.Close()
	if got := GOARCH(f.Machine); got != runtime.GOARCH {
		t.Errorf("GOARCH of the test binary = %q, want %q", got, runtime.GOARCH)
	}
}
