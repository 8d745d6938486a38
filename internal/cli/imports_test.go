package cli

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// maxProjectImports is how many packages of the project the cli may import
// (issue 26): flags, exit codes and what is printed; the work is theirs.
// The writers it picks (formats) and the ones it calls itself (tables,
// page, papers) are imported honestly, not linked in by init (issue 39).
const maxProjectImports = 17

// faces are the packages only a verb that is the package's own face may
// import: `image` is hostimage's, `worker` the worker's; no cli file
// imports an engine's API, a wire or the user's command workload.
var faces = map[string][]string{
	"internal/docker":           nil,
	"internal/hostimage":        {"image.go"},
	"internal/wire":             nil,
	"internal/worker":           {"worker.go"},
	"internal/workload/command": nil,
}

// TestCLIImportsFewPackages reads the imports of every non-test file of the
// package: at most maxProjectImports of the project's packages in all,
// and the packages in faces only from their face.
func TestCLIImportsFewPackages(t *testing.T) {
	const module = "github.com/boxtax/boxtax/"
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var project []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				t.Fatal(err)
			}
			pkg, ok := strings.CutPrefix(path, module)
			if !ok {
				continue
			}
			if !slices.Contains(project, pkg) {
				project = append(project, pkg)
			}
			if allowed, ok := faces[pkg]; ok && !slices.Contains(allowed, name) {
				t.Errorf("%s imports %s: only %v may (move what it needs into the package that owns it)", name, pkg, allowed)
			}
		}
	}
	slices.Sort(project)
	if len(project) > maxProjectImports {
		t.Errorf("the cli imports %d of the project's packages, at most %d: %s", len(project), maxProjectImports, strings.Join(project, ", "))
	}
}
