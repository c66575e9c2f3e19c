package languages

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// nameAllowed are the files outside the language packages that may name a
// framework, each with the reason its doc comment gives.
var nameAllowed = map[string]bool{
	"internal/specreport/specreport.go": true, // semtest's own report, a handler above package run
}

// extAllowed are the folders outside the language packages whose files
// may spell a language's file extension, each with the reason.
var extAllowed = []string{
	// The mutation benchmark judges the selection: it picks the files to
	// mutate by rules of its own, not by the knowledge it measures.
	"internal/mutbench/",
}

// TestNoFrameworkNamedOutsideItsLanguage: the generic code knows no
// framework by name. Outside internal/lang/<lang>/ and this registry, no
// non-test file refers to a framework constant (testdex.Go, testdex.Pytest,
// ...) but the few nameAllowed says why; a fact the generic code needs is
// a field of the framework's lang.Framework. Nor does it spell a
// language's file extension (".py", "_test.go": a Detector's Extensions
// or a Bodies' Extensions) but in extAllowed: which files are whose is
// the language's knowledge (lang.Language), asked of the registry.
func TestNoFrameworkNamedOutsideItsLanguage(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	names := frameworkConsts(t, filepath.Join(root, "testdex.go"))
	if len(names) != len(Frameworks()) {
		t.Fatalf("testdex.go declares %d frameworks, the registry %d", len(names), len(Frameworks()))
	}
	exts := extensions()
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
		extOK := slices.ContainsFunc(extAllowed, func(dir string) bool { return strings.HasPrefix(rel, dir) })
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING && !extOK {
				if v, err := strconv.Unquote(lit.Value); err == nil && exts[v] {
					t.Errorf("%s: spells the extension %q (make the fact a field of its lang.Language)", fset.Position(lit.Pos()), v)
				}
			}
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

// extensions are the file extensions the languages declare: their
// Detectors' (but whole file names, as testdex.toml) and their Bodies'.
func extensions() map[string]bool {
	out := map[string]bool{}
	for _, l := range All {
		for _, e := range l.Detector.Extensions() {
			if strings.HasPrefix(e, ".") || strings.HasPrefix(e, "_") {
				out[e] = true
			}
		}
		if l.Bodies != nil {
			for _, e := range l.Bodies.Extensions {
				out[e] = true
			}
		}
	}
	return out
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
