package testenv

import (
	"strings"
	"testing"
)

// Says checks that text holds each of wants: for each it lacks the test
// fails, and goes on, naming what the text is ("the report", "JSON") and
// showing it.
func Says(tb testing.TB, what, text string, wants ...string) {
	tb.Helper()
	for _, w := range wants {
		if !strings.Contains(text, w) {
			tb.Errorf("%s lacks %q:\n%s", what, w, text)
		}
	}
}
