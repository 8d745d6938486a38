package worker

import (
	"testing"

	"github.com/boxtax/boxtax/internal/hostprog"
	"github.com/boxtax/boxtax/internal/testenv"
)

// TestTailKeepsTheFirstLinesToo: issue 15 item 13, the stored failure
// reason kept only the last 4 KB of stderr, so a crash's first line was lost.
func TestTailKeepsTheFirstLinesToo(t *testing.T) {
	tl := hostprog.KeepEnds(64)
	tl.Write([]byte("panic: the first line\n"))
	for i := 0; i < 100; i++ {
		tl.Write([]byte("goroutine noise\n"))
	}
	tl.Write([]byte("exit status 2"))
	got := stderrSuffix(tl)
	testenv.Says(t, "the tail", got, "panic: the first line", "exit status 2", "bytes left out")
	if len(got) > 64+60 {
		t.Errorf("kept %d bytes, want about 64", len(got))
	}
	small := hostprog.KeepEnds(64)
	small.Write([]byte("short"))
	if got := stderrSuffix(small); got != "; stderr: short" {
		t.Errorf("short stderr: %q", got)
	}
}
