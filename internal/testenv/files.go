package testenv

import (
	"bytes"
	"os"
	"path/filepath"
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

// Golden compares got with the golden file at path, after writing got
// there when update is set (the test package's -update flag). The test
// fails when the two differ, showing got, or when the file cannot be read.
func Golden(tb testing.TB, path string, got []byte, update bool) {
	tb.Helper()
	if update {
		WriteFile(tb, path, got, 0o644)
	}
	want, err := os.ReadFile(path)
	if err != nil {
		tb.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		tb.Errorf("output differs from %s (go test -update rewrites it):\n%s", path, got)
	}
}

// GoldenWrite is Golden for what write prints: it compares it with
// testdata/NAME.golden, failing the test when write fails.
func GoldenWrite(tb testing.TB, name string, update bool, write func(*bytes.Buffer) error) {
	tb.Helper()
	var buf bytes.Buffer
	if err := write(&buf); err != nil {
		tb.Fatal(err)
	}
	Golden(tb, filepath.Join("testdata", name+".golden"), buf.Bytes(), update)
}
