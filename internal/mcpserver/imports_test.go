package mcpserver_test

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImports holds the server to its place: among testdex's own
// packages it imports the engine (workspace), the views (internal/report),
// the vocabulary (the root package) and line plumbing, never a core
// package (index, run, changes, coverage) directly.
func TestImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/testdex/testdex":                 true,
		"github.com/testdex/testdex/workspace":       true,
		"github.com/testdex/testdex/internal/report": true,
		"github.com/testdex/testdex/internal/lines":  true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		ast, err := parser.ParseFile(token.NewFileSet(), f, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range ast.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if strings.HasPrefix(path, "github.com/testdex/testdex") && !allowed[path] {
				t.Errorf("%s imports %s: go through package workspace", f, path)
			}
		}
	}
}
