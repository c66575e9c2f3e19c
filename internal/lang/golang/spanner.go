package golang

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"

	"github.com/testdex/testdex/internal/lang"
)

// Spanner cuts Go files into their functions and methods for the
// coverage index: lines from go/parser, hashes from the impact graph's
// declaration cutter (scanDecls), so a function's hash here is the one
// `testdex affected` compares. Closures stay inside their function.
var Spanner lang.Spanner = spanner{}

type spanner struct{}

// Spans returns the file's functions and methods in source order, named
// "F" and "T.M" as the impact graph keys them ("init" for each init). A
// file that does not parse is an error and gives none.
func (spanner) Spans(file string, src []byte) ([]lang.FuncSpan, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	base := filepath.Base(file)
	queue := map[string][]uint64{} // key -> hashes of the decls of that key, in order
	for _, d := range scanDecls(base, src).decls {
		queue[d.key] = append(queue[d.key], d.hash)
	}
	var out []lang.FuncSpan
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok {
			continue
		}
		name, key := fd.Name.Name, fd.Name.Name
		if r := recvBase(fd); r != "" {
			name, key = r+"."+name, r+"."+name
		} else if name == "init" {
			key = "init(" + base + ")"
		}
		var h uint64
		if q := queue[key]; len(q) > 0 {
			h, queue[key] = q[0], q[1:]
		}
		out = append(out, lang.FuncSpan{Name: name, Start: fset.Position(fd.Pos()).Line, End: fset.Position(fd.End()).Line, Hash: h})
	}
	return out, nil
}

// recvBase is a method's receiver base type name ("" for a function):
// T for T, *T, T[K], *T[K, V].
func recvBase(fd *ast.FuncDecl) string {
	if fd.Recv == nil || len(fd.Recv.List) == 0 {
		return ""
	}
	t := fd.Recv.List[0].Type
	for {
		switch x := t.(type) {
		case *ast.StarExpr:
			t = x.X
		case *ast.ParenExpr:
			t = x.X
		case *ast.IndexExpr:
			t = x.X
		case *ast.IndexListExpr:
			t = x.X
		case *ast.Ident:
			return x.Name
		default:
			return ""
		}
	}
}
