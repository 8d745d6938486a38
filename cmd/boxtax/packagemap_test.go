package main

import (
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestPackageMapNamesEveryPackage: docs/design/012-package-map.md says who
// owns what, so every package of the tree must be in it (issue 26). A
// package is named by its path in backquotes (`internal/store`), or by its
// last element in backquotes on a line that names its parent
// (`internal/report` (+ `plot`, `browse`)), or on the line of
// `internal/workload/<name>`.
func TestPackageMapNamesEveryPackage(t *testing.T) {
	root := filepath.Join("..", "..")
	doc, err := os.ReadFile(filepath.Join(root, "docs", "design", "012-package-map.md"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(doc), "\n")
	named := func(pkg string) bool {
		parent, base := path.Dir(pkg), path.Base(pkg)
		for _, l := range lines {
			if strings.Contains(l, "`"+pkg+"`") {
				return true
			}
			if strings.Contains(l, "`"+parent+"`") || strings.Contains(l, "`"+parent+"/<name>`") {
				if strings.Contains(l, "`"+base+"`") {
					return true
				}
			}
		}
		return false
	}
	var missing []string
	for _, pkg := range packages(t, root) {
		if !named(pkg) {
			missing = append(missing, pkg)
		}
	}
	if len(missing) > 0 {
		t.Errorf("docs/design/012-package-map.md does not name %d package(s): %s", len(missing), strings.Join(missing, ", "))
	}
}

// packages lists the directories under cmd/ and internal/ that hold Go
// code other than tests, as slash paths from the module's root.
func packages(t *testing.T, root string) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, top := range []string{"cmd", "internal"} {
		err := filepath.WalkDir(filepath.Join(root, top), func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if !d.IsDir() && strings.HasSuffix(p, ".go") && !strings.HasSuffix(p, "_test.go") {
				rel, err := filepath.Rel(root, filepath.Dir(p))
				if err != nil {
					return err
				}
				seen[filepath.ToSlash(rel)] = true
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	if len(out) < 10 {
		t.Fatalf("found only %d packages under %s: is the test run from cmd/boxtax?", len(out), root)
	}
	return out
}
