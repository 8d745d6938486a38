package report

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWritersAreFunctionsOfTheModel: a format is a function of the
// report, as vegeta's reporters are of its metrics; no method of a type of
// this package writes to an io.Writer (issue 26 part 3): the formats are
// functions in packages tables and page, named in package formats.
func TestWritersAreFunctionsOfTheModel(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			for _, p := range fn.Type.Params.List {
				if sel, ok := p.Type.(*ast.SelectorExpr); ok && sel.Sel.Name == "Writer" && sel.X.(*ast.Ident).Name == "io" {
					t.Errorf("%s: method %s writes to an io.Writer: make it a function of the model", fset.Position(fn.Pos()), fn.Name.Name)
				}
			}
		}
	}
}
