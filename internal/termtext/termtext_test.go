package termtext

import (
	"strings"
	"testing"
)

func TestVisible(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain text stays", "cpu.prime: 1.5 µs ± 2 %", "cpu.prime: 1.5 µs ± 2 %"},
		{"newlines and tabs stay", "a\tb\nc", "a\tb\nc"},
		{"an escape sequence is shown", "failed \x1b[2J\x1b]0;pwned\x07", `failed \x1b[2J\x1b]0;pwned\x07`},
		{"carriage return and backspace", "ok\r\bFAIL", `ok\x0d\x08FAIL`},
		{"DEL", "a\x7fb", `a\x7fb`},
		{"C1 control (CSI)", "x\u009b2Jy", `x\u009b2Jy`},
		{"a byte that is not UTF-8", "a\xffb\x9b", `a\xffb\x9b`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Visible(tc.in); got != tc.want {
				t.Errorf("Visible(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

func TestWriter(t *testing.T) {
	var b strings.Builder
	w := NewWriter(&b)
	n, err := w.Write([]byte("run 3 failed: \x1b[31mred\n"))
	if err != nil || n != len("run 3 failed: \x1b[31mred\n") {
		t.Fatalf("Write: %d, %v", n, err)
	}
	if b.String() != `run 3 failed: \x1b[31mred`+"\n" {
		t.Errorf("wrote %q", b.String())
	}
	if NewWriter(w) != w {
		t.Errorf("a Writer of a Writer escapes twice")
	}
}
