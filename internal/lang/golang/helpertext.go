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
// until no more do. Each candidate's text is read once.
func relays(x *fileCtx, file *srcFile, cands []*ast.FuncDecl, pkgRunners map[string]bool) {
	if len(file.runners)+len(pkgRunners)+len(file.methods) == 0 {
		return
	}
	methods := map[string]bool{} // ".name" of the methods that may start subtests
	for n := range file.methods {
		if x.methodHoldsRun(file, n) {
			methods["."+n] = true
		}
	}
	called := make([][]string, len(cands))
	for i, fn := range cands {
		called[i] = calledNames(x.text(file, fn.Body))
	}
	for changed := true; changed; {
		changed = false
		for i, fn := range cands {
			if fn == nil {
				continue
			}
			for _, n := range called[i] {
				if file.runners[n] || pkgRunners[n] || methods[n] {
					file.runners[fn.Name.Name] = true
					cands[i] = nil
					changed = true
					break
				}
			}
		}
	}
}

// calledNames lists the names text calls: each NAME( that is not the
// end of a qualified name, and ".NAME" for each x.NAME( (a method, or
// another package's function).
func calledNames(text []byte) []string {
	var out []string
	for off := 0; ; {
		i := bytes.IndexByte(text[off:], '(')
		if i < 0 {
			return out
		}
		i += off
		off = i + 1
		if n := identBefore(text, i); n != "" {
			out = append(out, n)
		} else if k := i - identLen(text, i); k > 0 && k < i && text[k-1] == '.' {
			out = append(out, string(text[k-1:i]))
		}
	}
}

// identLen is the length of the identifier that ends at end.
func identLen(text []byte, end int) int {
	k := end
	for k > 0 && isIdentByte(text[k-1]) {
		k--
	}
	return end - k
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

// testingParam reports whether fn has a parameter that can hold a
// *testing.T: one of a type of package testing (*testing.T, testing.TB),
// or of one of its type parameters (func run[T TBRun[T]](t T, ...)).
func testingParam(fn *ast.FuncDecl) bool {
	if fn.Type.Params == nil {
		return false
	}
	for _, p := range fn.Type.Params.List {
		if len(p.Names) > 0 && testingType(p.Type, fn.Type.TypeParams) {
			return true
		}
	}
	return false
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

// funcValueNames are the names file may give function values, found in
// its text: NAME := func(, NAME = func(, and NAME func( (a parameter,
// field or variable of a function type). A call by such a name may call
// a closure; a call by any other name that is not a function of the
// package cannot start subtests the walk could follow. Computed once per
// file.
func (x *fileCtx) funcValueNames(file *srcFile) map[string]bool {
	if file.funcValues != nil {
		return file.funcValues
	}
	file.funcValues = map[string]bool{}
	src := file.src
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte("func("))
		if i < 0 {
			break
		}
		i += off
		off = i + 5
		k := i
		for k > 0 && (src[k-1] == ' ' || src[k-1] == '\t') {
			k--
		}
		if k > 0 && src[k-1] == '=' {
			k--
			if k > 0 && src[k-1] == ':' {
				k--
			}
			for k > 0 && (src[k-1] == ' ' || src[k-1] == '\t') {
				k--
			}
		} else if k == i {
			continue // "(func(", "xfunc(": no name before it
		}
		if name := identBefore(src, k); name != "" && !token.IsKeyword(name) {
			file.funcValues[name] = true
		}
	}
	return file.funcValues
}
