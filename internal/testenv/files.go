package testenv

import (
	"os"
	"testing"
)

// WriteFile writes a file a test needs (os.WriteFile); the test fails
// when it cannot.
func WriteFile(tb testing.TB, name string, data []byte, perm os.FileMode) {
	tb.Helper()
	if err := os.WriteFile(name, data, perm); err != nil {
		tb.Fatal(err)
	}
}
