package worker

import (
	"strings"

	"github.com/boxtax/boxtax/internal/hostprog"
)

// stderrSuffix renders the kept text for an error message, or "" when
// empty.
func stderrSuffix(t *hostprog.Tail) string {
	s := strings.TrimSpace(t.String())
	if s == "" {
		return ""
	}
	return "; stderr: " + s
}
