package study

import (
	"strings"

	"github.com/boxtax/boxtax/internal/hostprog"
)

// newStderrTail keeps the first and the last max/2 bytes of a worker's
// stderr, quoted when a run fails. The head holds a crash's first line (a
// Go panic's message, the first error), the tail what happened last.
func newStderrTail(max int) *hostprog.Tail {
	return &hostprog.Tail{Head: max / 2, Max: max - max/2}
}

// stderrSuffix renders the kept text for an error message, or "" when
// empty.
func stderrSuffix(t *hostprog.Tail) string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return "; stderr: " + s
}
