package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// SeedsDirEnv names the environment variable that points at the seed
// papers' full texts (the directory holding shared/seeds' README.md and
// 000_....txt to 004_....txt) when they are not beside the checkout.
// BOXTAX_SEEDS, its older name, is honoured too.
const SeedsDirEnv = "BOXTAX_SEEDS_DIR"

// FindSeedsDir returns the directory of the seed papers' full texts:
// $BOXTAX_SEEDS_DIR (or $BOXTAX_SEEDS), else the first shared/seeds found
// walking up from the module root (the directory holding go.mod, found
// from the working directory): in a checkout and in CI shared/ sits
// beside the repository, ../shared/seeds. The error says where it looked.
func FindSeedsDir() (string, error) {
	for _, name := range []string{SeedsDirEnv, "BOXTAX_SEEDS"} {
		if d := os.Getenv(name); d != "" {
			if isSeedsDir(d) {
				return d, nil
			}
			return "", fmt.Errorf("$%s=%s holds no seed texts (no README.md there): point it at shared/seeds", name, d)
		}
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	root := wd
	for !fileIn(root, "go.mod") {
		parent := filepath.Dir(root)
		if parent == root {
			root = wd // no module: walk up from here
			break
		}
		root = parent
	}
	for dir := root; ; {
		d := filepath.Join(dir, "shared", "seeds")
		if isSeedsDir(d) {
			return d, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	return "", fmt.Errorf("the seed texts (shared/seeds) are not beside the checkout (looked for shared/seeds in %s and every directory above it): copy shared/ beside the repository, or set %s=DIR", root, SeedsDirEnv)
}

// SeedsDir is FindSeedsDir within a test: without the seed texts the test
// ends as Missing does (it skips on a developer machine saying what pkg,
// the package under test, checks against them; in CI it fails).
func SeedsDir(tb testing.TB, pkg string) string {
	tb.Helper()
	d, err := FindSeedsDir()
	if err != nil {
		Missing(tb, "package %s checks its transcriptions against the seed papers' full texts: %v", pkg, err)
	}
	return d
}

func isSeedsDir(d string) bool { return fileIn(d, "README.md") }

func fileIn(dir, name string) bool {
	st, err := os.Stat(filepath.Join(dir, name))
	return err == nil && !st.IsDir()
}
