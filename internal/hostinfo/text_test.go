package hostinfo

import (
	"strings"
	"testing"
)

// TestWriteTextIsSysinfosLayout: a line a fact, names padded to one column,
// "(not readable here)" for what Collect could not find.
func TestWriteTextIsSysinfosLayout(t *testing.T) {
	h := Host{Hostname: "pi4-kitchen", OS: "linux", Arch: "arm64", CPUModel: "Cortex-A72", CPUs: 4,
		MemTotalBytes: 4 << 30, KernelRelease: "6.1.0-rpi7", Boxtax: "v1.2"}
	var b strings.Builder
	h.WriteText(&b)
	want := "hostname:        pi4-kitchen\n" +
		"os/arch:         linux/arm64\n" +
		"cpu:             Cortex-A72 x 4\n" +
		"memory:          4.0 GiB\n" +
		"kernel:          6.1.0-rpi7\n" +
		"preemption:      (not readable here)\n" +
		"cpu governor:    (not readable here)\n" +
		"virtualized:     (not readable here)\n" +
		"boxtax:          v1.2\n"
	if b.String() != want {
		t.Errorf("WriteText:\n%s\nwant:\n%s", b.String(), want)
	}
}
