package languages

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"strings"
	"testing"
)

// nameAllowed are the files outside the language packages that may name a
// framework, each with the reason its doc comment gives.
var nameAllowed = map[string]bool{
	"internal/specreport/specreport.go": true, // semtest's own report, a handler above package run
}

// TestNoFrameworkNamedOutsideItsLanguage: the generic code knows no
// framework by name. Outside internal/lang/<lang>/ and this registry, no
// non-test file refers to a framework constant (testdex.Go, testdex.Pytest,
// ...) but the few nameAllowed says why; a fact the generic code needs is
// a field of the framework's lang.Framework.
func TestNoFrameworkNamedOutsideItsLanguage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	names := frameworkConsts(t, filepath.Join(root, "testdex.go"))
	if len(names) != len(Frameworks()) {
		t.Fatalf("testdex.go declares %d frameworks, the registry %d", len(names), len(Frameworks()))
	}
	fset := token.NewFileSet()
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+string(filepath.Separator)))
		if d.IsDir() {
			if d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root || d.Name() == "node_modules" || rel == "internal/languages" ||
				path.Dir(rel) == "internal/lang" {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") || nameAllowed[rel] {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if x, ok := sel.X.(*ast.Ident); ok && x.Name == "testdex" && names[sel.Sel.Name] {
					t.Errorf("%s: names the framework testdex.%s (make the fact a field of its lang.Framework)", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// frameworkConsts returns the names of the constants of type Framework
// that testdex.go declares.
func frameworkConsts(t *testing.T, file string) map[string]bool {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Framework" {
				for _, n := range v.Names {
					out[n.Name] = true
				}
			}
		}
	}
	return out
}
