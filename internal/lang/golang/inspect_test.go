package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestInspectMatchesAstInspect compares inspect with ast.Inspect on a
// sample of GOROOT's Go files (every node, in order) and with a pruning
// f (function literals not entered), as the extractor's scans prune.
func TestInspectMatchesAstInspect(t *testing.T) {
	root := filepath.Join(runtime.GOROOT(), "src", "go")
	var n int
	filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".go") || strings.Contains(p, "testdata") {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		file, _ := parser.ParseFile(token.NewFileSet(), p, data, parser.ParseComments|parser.SkipObjectResolution)
		if file == nil {
			return nil
		}
		n++
		for _, prune := range []bool{false, true} {
			var want, got []ast.Node
			ast.Inspect(file, func(x ast.Node) bool {
				if x != nil {
					want = append(want, x)
				}
				_, lit := x.(*ast.FuncLit)
				return !prune || !lit
			})
			inspect(file, func(x ast.Node) bool {
				got = append(got, x)
				_, lit := x.(*ast.FuncLit)
				return !prune || !lit
			})
			if len(got) != len(want) {
				t.Fatalf("%s (prune %v): %d nodes, ast.Inspect %d", p, prune, len(got), len(want))
			}
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%s (prune %v): node %d is %T, ast.Inspect's %T", p, prune, i, got[i], want[i])
				}
			}
		}
		return nil
	})
	if n == 0 {
		t.Skip("no GOROOT sources")
	}
}
