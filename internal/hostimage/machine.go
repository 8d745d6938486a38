package hostimage

import "debug/elf"

// machine is what boxtax knows of one ELF machine, by the names each
// consumer gives it: GOARCH (the Docker daemon's architecture), Debian's
// multiarch directory, the loader's $PLATFORM and glibc's hwcaps
// subdirectories. One table, so a machine is added in one place.
type machine struct {
	goarch   string // as GOARCH and the daemon name it, e.g. arm64
	triplet  string // Debian's multiarch directory, e.g. aarch64-linux-gnu
	only64   bool   // the triplet holds for 64-bit objects only
	platform string // the loader's $PLATFORM, e.g. x86_64
	hwcaps   []string
}

var machines = map[elf.Machine]machine{
	elf.EM_X86_64: {goarch: "amd64", triplet: "x86_64-linux-gnu", platform: "x86_64",
		hwcaps: []string{"glibc-hwcaps/x86-64-v4", "glibc-hwcaps/x86-64-v3", "glibc-hwcaps/x86-64-v2"}},
	elf.EM_AARCH64: {goarch: "arm64", triplet: "aarch64-linux-gnu", platform: "aarch64"},
	elf.EM_ARM:     {goarch: "arm", triplet: "arm-linux-gnueabihf"},
	elf.EM_386:     {goarch: "386", triplet: "i386-linux-gnu", platform: "i686"},
	elf.EM_RISCV:   {goarch: "riscv64", triplet: "riscv64-linux-gnu", only64: true},
	elf.EM_PPC64: {triplet: "powerpc64le-linux-gnu",
		hwcaps: []string{"glibc-hwcaps/power10", "glibc-hwcaps/power9"}},
	elf.EM_S390: {triplet: "s390x-linux-gnu",
		hwcaps: []string{"glibc-hwcaps/z16", "glibc-hwcaps/z15", "glibc-hwcaps/z14", "glibc-hwcaps/z13"}},
}

// GOARCH names an ELF machine as GOARCH does, as the Docker daemon reports
// its architecture; empty for machines boxtax does not build for.
func GOARCH(m elf.Machine) string { return machines[m].goarch }

// multiarchTriplet is Debian's multiarch directory name for a machine.
func multiarchTriplet(m elf.Machine, c elf.Class) string {
	mi := machines[m]
	if mi.only64 && c != elf.ELFCLASS64 {
		return ""
	}
	return mi.triplet
}

// platform is the loader's $PLATFORM for a machine.
func platform(m elf.Machine) string { return machines[m].platform }

// hwcapsDirs are glibc's per-CPU-level subdirectories (glibc 2.33 and
// later) tried before each directory; the image takes every variant found,
// as the container runs on the same CPU as the host.
func hwcapsDirs(m elf.Machine) []string { return machines[m].hwcaps }
