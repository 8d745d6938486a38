package engines

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// nameMatchers are the strings functions by which code outside env could
// read an environment's engine or options from its name.
var nameMatchers = []string{"HasPrefix", "CutPrefix", "TrimPrefix", "Cut", "Contains", "Split", "SplitN",
	"Index", "HasSuffix", "CutSuffix", "TrimSuffix", "LastIndex", "Fields"}

// leaksPending are offenders outside this worktree's reach, each with what
// replaces it; the test fails when one no longer offends, so the entry goes.
var leaksPending = map[string]string{}

// TestNoEnvironmentNameMatchingOutsideEnv fails when a package outside env
// matches environment names by prefix or splits off their options by hand:
// a strings function given a literal that begins with a registered
// environment's engine word (docker, podman, lxc, native), or the option
// separator "+" cut, split, searched or appended to a name. What an engine
// is, which facts it records and what an option means are asked of env
// (ParseName, OptionRemoves, EngineFactsKey...), so adding an environment
// touches env alone.
func TestNoEnvironmentNameMatchingOutsideEnv(t *testing.T) {
	var words []string
	for _, n := range Names() {
		w, _, _ := strings.Cut(n, "-")
		if !slices.Contains(words, w) {
			words = append(words, w)
		}
	}
	root, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	found := map[string][]string{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			if rel == "internal/env" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && rel != "." {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		if leaks := nameLeaks(t, p, rel, words); len(leaks) > 0 {
			found[rel] = append(found[rel], leaks...)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for file, leaks := range found {
		if _, ok := leaksPending[file]; ok {
			continue
		}
		t.Errorf("%s matches environment names by hand; ask env (ParseName, OptionRemoves, EngineFactsKey) instead:\n\t%s",
			file, strings.Join(leaks, "\n\t"))
	}
	for file, why := range leaksPending {
		if len(found[file]) == 0 {
			t.Errorf("%s no longer matches environment names: remove its entry from leaksPending (%s)", file, why)
		}
	}
}

// nameLeaks lists the calls in the file at p that match environment names.
func nameLeaks(t *testing.T, p, rel string, words []string) []string {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, p, nil, 0)
	if err != nil {
		t.Fatalf("parsing %s: %v", p, err)
	}
	var leaks []string
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok || len(call.Args) < 2 || !slices.Contains(nameMatchers, sel.Sel.Name) {
			return true
		}
		if pkg, ok := sel.X.(*ast.Ident); !ok || pkg.Name != "strings" {
			return true
		}
		for _, arg := range call.Args[1:] {
			if leaky(arg, sel.Sel.Name, words) {
				leaks = append(leaks, rel+":"+strconv.Itoa(fset.Position(call.Pos()).Line)+": strings."+sel.Sel.Name)
				break
			}
		}
		return true
	})
	return leaks
}

// leaky tells whether a strings function's argument names an engine (a
// literal beginning with an engine word) or the option separator: "+"
// searched for, cut or split on, or appended to a name (full+"+"); a bare
// HasPrefix(s, "+") is a sign, not a name.
func leaky(arg ast.Expr, fn string, words []string) bool {
	switch a := arg.(type) {
	case *ast.BasicLit:
		s, err := strconv.Unquote(a.Value)
		if err != nil || a.Kind != token.STRING {
			return false
		}
		for _, w := range words {
			if strings.HasPrefix(s, w) {
				return true
			}
		}
		return s == "+" && !slices.Contains([]string{"HasPrefix", "TrimPrefix", "CutPrefix"}, fn)
	case *ast.BinaryExpr:
		if lit, ok := a.Y.(*ast.BasicLit); ok && a.Op == token.ADD && lit.Value == `"+"` {
			return true
		}
		return leaky(a.X, fn, words) || leaky(a.Y, fn, words)
	}
	return false
}
