package testenv

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFileIn writes the file name of directory dir (WriteFile) and
// returns its path: a script, an inventory or a data file a test hands on.
func WriteFileIn(tb testing.TB, dir, name string, data []byte, perm os.FileMode) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	WriteFile(tb, path, data, perm)
	return path
}
