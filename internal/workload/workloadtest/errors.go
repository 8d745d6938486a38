package workloadtest

import (
	"strings"
	"testing"
)

// CheckErr fails t unless err is nil when want is empty, or mentions want.
func CheckErr(t testing.TB, err error, want string) {
	t.Helper()
	switch {
	case want == "" && err != nil:
		t.Errorf("unexpected error: %v", err)
	case want != "" && err == nil:
		t.Errorf("no error, want one mentioning %q", want)
	case want != "" && !strings.Contains(err.Error(), want):
		t.Errorf("error %q does not mention %q", err, want)
	}
}
