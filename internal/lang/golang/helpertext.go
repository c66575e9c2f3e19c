package golang

import (
	"bytes"
	"go/ast"
	"go/token"
)

// Which functions are helpers is decided from their text, not their
// syntax trees: walking the tree of every function that takes a T costs
// a tenth of parsing GOROOT's tests, and searching its bytes for ".Run("
// next to nothing. The text errs on the side of yes (a cmd.Run(ctx) in a
// helper makes it a candidate); the walk of an inlined helper then finds
// exactly its t.Run calls.

// runnerNames returns the names of file's top-level functions that may
// start subtests of a *testing.T they receive: those with a parameter
// that can hold one (testingParam) whose body holds a Run call
// (textRuns), or a call by name of another such function of the file or
// of the package's other files (x.pkgCtx). Test functions are not
// helpers. The answer is computed once per file.
func (x *fileCtx) runnerNames(file *srcFile) map[string]bool {
	if file == nil {
		return nil
	}
	if file.runners != nil {
		return file.runners
	}
	file.runners = map[string]bool{}
	var pkgRunners map[string]bool
	if x.pkgCtx != nil {
		pkgRunners = x.pkgCtx.runners
	}
	if len(pkgRunners) == 0 && !bytes.Contains(file.src, []byte(".Run(")) {
		return file.runners
	}
	var cands []*ast.FuncDecl
	for _, d := range file.file.Decls {
		fn, ok := d.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || fn.Name == nil || file.funcs[fn.Name.Name] != fn || !testingParam(fn) || isTestName(fn.Name.Name) {
			continue
		}
		if textRuns(x.text(file, fn.Body)) {
			file.runners[fn.Name.Name] = true
		} else {
			cands = append(cands, fn)
		}
	}
	relays(x, file, cands, pkgRunners)
	return file.runners
}

// relays adds to file.runners the candidates that call a runner by name,
// until no more do.
func relays(x *fileCtx, file *srcFile, cands []*ast.FuncDecl, pkgRunners map[string]bool) {
	for changed := len(file.runners)+len(pkgRunners) > 0; changed; {
		changed = false
		for i, fn := range cands {
			if fn == nil {
				continue
			}
			body := x.text(file, fn.Body)
			if callsAny(body, file.runners) || callsAny(body, pkgRunners) {
				file.runners[fn.Name.Name] = true
				cands[i] = nil
				changed = true
			}
		}
	}
}

// callsAny reports whether text calls one of names (callsName).
func callsAny(text []byte, names map[string]bool) bool {
	for n := range names {
		if callsName(text, n) {
			return true
		}
	}
	return false
}

// isTestName reports whether name is one go test runs by its prefix.
func isTestName(name string) bool {
	return isTest(name, "Test") || isTest(name, "Benchmark") || isTest(name, "Fuzz")
}

// text is the source of a node of file.
func (x *fileCtx) text(file *srcFile, n ast.Node) []byte {
	tf := x.fset.File(n.Pos())
	if tf == nil || n.End() > token.Pos(tf.Base()+tf.Size()) {
		return nil
	}
	start, end := tf.Offset(n.Pos()), tf.Offset(n.End())
	if start < 0 || end > len(file.src) || start > end {
		return nil
	}
	return file.src[start:end]
}

// textRuns reports whether text holds ".Run(" with an argument.
func textRuns(text []byte) bool {
	for {
		i := bytes.Index(text, []byte(".Run("))
		if i < 0 {
			return false
		}
		text = text[i+5:]
		rest := bytes.TrimLeft(text, " \t\r\n")
		if len(rest) > 0 && rest[0] != ')' {
			return true
		}
	}
}

// callsName reports whether text holds name( as a call of that name: not
// the end of a longer name, not a method or a qualified name.
func callsName(text []byte, name string) bool {
	pat := []byte(name + "(")
	for off := 0; ; {
		i := bytes.Index(text[off:], pat)
		if i < 0 {
			return false
		}
		i += off
		if i == 0 || !isIdentByte(text[i-1]) && text[i-1] != '.' {
			return true
		}
		off = i + len(pat)
	}
}

// testingParam reports whether fn has a parameter that can hold a
// *testing.T: one of a type of package testing (*testing.T, testing.TB),
// or of one of its type parameters (func run[T TBRun[T]](t T, ...)).
func testingParam(fn *ast.FuncDecl) bool {
	return len(testingParams(fn.Type, fn.Type.TypeParams)) > 0
}

// testingParams lists the names of the parameters testingParam accepts.
func testingParams(ft *ast.FuncType, tparams *ast.FieldList) []string {
	if ft.Params == nil {
		return nil
	}
	var out []string
	for _, p := range ft.Params.List {
		if !testingType(p.Type, tparams) {
			continue
		}
		for _, n := range p.Names {
			out = append(out, n.Name)
		}
	}
	return out
}

func testingType(t ast.Expr, tparams *ast.FieldList) bool {
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch t := t.(type) {
	case *ast.SelectorExpr:
		id, ok := t.X.(*ast.Ident)
		return ok && id.Name == "testing"
	case *ast.Ident:
		if tparams == nil {
			return false
		}
		for _, f := range tparams.List {
			for _, n := range f.Names {
				if n.Name == t.Name {
					return true
				}
			}
		}
	}
	return false
}
