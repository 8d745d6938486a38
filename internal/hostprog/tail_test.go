package hostprog

import (
	"strings"
	"testing"
)

func TestTailKeepsTheLastBytes(t *testing.T) {
	tl := &Tail{Max: 8}
	tl.Write([]byte("0123456789"))
	tl.Write([]byte("ab"))
	if got := tl.String(); got != "456789ab" {
		t.Errorf("kept %q, want the last 8 bytes 456789ab", got)
	}
	small := &Tail{Max: 8}
	small.Write([]byte("short"))
	if got := small.String(); got != "short" {
		t.Errorf("kept %q of short", got)
	}
}

func TestTailWithAHeadSaysWhatItLeftOut(t *testing.T) {
	tl := &Tail{Max: 8, Head: 6}
	tl.Write([]byte("first "))
	tl.Write([]byte(strings.Repeat("x", 100)))
	tl.Write([]byte("the end"))
	got := tl.String()
	if want := "first \n[... 99 bytes left out ...]\nxthe end"; got != want {
		t.Errorf("kept %q, want %q", got, want)
	}
}
