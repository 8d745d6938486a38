// Package termtext makes text that came from outside boxtax (a stored
// study's names and failed runs' reasons, a program's output, the headers
// of a user's CSV file) safe to print where a terminal may show it: control
// characters are made visible instead of being interpreted, so an escape
// sequence in a stored reason cannot move the cursor, recolour or clear the
// screen, set the window title or fake other output.
//
// Newlines and tabs stay (they are how the text formats lay out lines and
// columns); every other C0 control character and DEL is written as \xNN,
// C1 control characters (U+0080 to U+009F, which some terminals obey as
// ESC sequences) as \uNNNN, and bytes that are not UTF-8 as \xNN.
package termtext

import (
	"fmt"
	"io"
	"strings"
	"unicode/utf8"
)

// Visible returns s with its control characters made visible, as the
// package comment says; text without any is returned as it is.
func Visible(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsEscape tells whether s has anything Visible changes.
func needsEscape(s string) bool {
	for i, r := range s {
		if r == utf8.RuneError {
			if _, size := utf8.DecodeRuneInString(s[i:]); size == 1 {
				return true
			}
		}
		if r < 0x20 && r != '\n' && r != '\t' || r >= 0x7f && r < 0xa0 {
			return true
		}
	}
	return false
}

// Writer passes what is written through Visible. Each Write is escaped on
// its own, so a character split across two writes shows as \xNN bytes:
// fmt and text/tabwriter write whole strings.
type Writer struct{ w io.Writer }

// NewWriter returns a Writer that writes to w.
func NewWriter(w io.Writer) *Writer {
	if tw, ok := w.(*Writer); ok {
		return tw
	}
	return &Writer{w}
}

// Write writes p with its control characters made visible; n counts the
// bytes of p, as io.Writer requires.
func (t *Writer) Write(p []byte) (int, error) {
	s := Visible(string(p))
	if _, err := io.WriteString(t.w, s); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Safe is a writer that makes control characters visible itself: a
// *Writer, or a writer around one that adds an ability of its own (the
// cli's coloured table). Wrap leaves it as it is.
type Safe interface {
	io.Writer
	VisibleText()
}

// VisibleText implements Safe.
func (t *Writer) VisibleText() {}

// Wrap returns w when it is Safe, else NewWriter(w): what is written to it
// has its control characters made visible, once.
func Wrap(w io.Writer) io.Writer {
	if s, ok := w.(Safe); ok {
		return s
	}
	return NewWriter(w)
}
