// Package errtest holds the check of a table test's wanted error, written
// once for the tests of every package. It imports nothing of boxtax, so
// the tests of any package, internal/docker's too, can use it.
package errtest

import (
	"strings"
	"testing"
)

// Want checks err against want, the text a wanted error contains ("" when
// the case wants no error), and reports whether the case ends here. When
// want is set, the case ends: t fails at once unless err contains want.
// When it is not, an error fails t at once, and the case goes on to check
// its result.
func Want(t testing.TB, err error, want string) (done bool) {
	t.Helper()
	if want != "" {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Fatalf("error %v, want one containing %q", err, want)
		}
		return true
	}
	if err != nil {
		t.Fatal(err)
	}
	return false
}
