package golang

import (
	"go/ast"
	"go/token"
	"slices"
	"strings"

	"github.com/testdex/testdex"
)

// Test helpers. A helper is a function declared in the package's test
// files (a top-level function, or a closure in a test body) that receives
// the test's *testing.T and calls t.Run with it:
//
//	func check(t *testing.T, name string, in int) {
//		t.Run(name, func(t *testing.T) { ... })
//	}
//
// Its subtests exist once per call, under the calling test, named from
// the call's arguments: the walker inlines the helper at each call site
// (inline), its parameters bound to the argument values, the parameter
// that receives the caller's *testing.T standing for it. A closure that
// captures the test's T instead of receiving it creates subtests of the
// test it was defined in. A helper declared in another test file of the
// package is inlined the same way when the Linker gives the extraction
// that file (pkgctx.go); extracting one file alone, its call is only
// noted in the Facts.
//
// Inlining is bounded: maxInline helpers deep (recursion included), and
// by the test's walk budget. A call that may start subtests but cannot be
// followed (too deep, or the T reaches the helper in a form the walk does
// not track) becomes one Dynamic record under the test, whose name says
// which call: TestX/{check(…): nested too deep}.

// maxInline bounds helpers inlined within helpers.
const maxInline = 16

// funcVal is a function value the walk can follow: a function literal
// with the scope it was written in, or a declared function of one of the
// package's files, whose free names resolve in its file's package scope.
type funcVal struct {
	lit  *ast.FuncLit
	decl *ast.FuncDecl
	env  *scope
	file *srcFile
	recv value // a method's receiver
}

func (f *funcVal) ftype() *ast.FuncType {
	if f.lit != nil {
		return f.lit.Type
	}
	return f.decl.Type
}

func (f *funcVal) body() *ast.BlockStmt {
	if f.lit != nil {
		return f.lit.Body
	}
	return f.decl.Body
}

// funcNamed resolves a name no scope binds to a top-level function of
// file or, when the Linker gave the package's other files, of theirs.
func (x *fileCtx) funcNamed(name string, file *srcFile) *funcVal {
	if file == nil {
		return nil
	}
	if d := file.funcs[name]; d != nil {
		return &funcVal{decl: d, env: file.pkg, file: file}
	}
	if x.pkgCtx != nil {
		if f := x.pkgCtx.declaring(name); f != nil && f.funcs[name] != nil {
			return &funcVal{decl: f.funcs[name], env: f.pkg, file: f}
		}
	}
	return nil
}

// mayRun reports whether calling f may start subtests: a declared
// function must be one of its file's runners (runnerNames); a literal
// must hold a Run call or a call of a runner, or call a closure that
// does. visiting guards closures that call each other.
func (x *fileCtx) mayRun(f *funcVal, visiting map[*ast.FuncLit]bool) bool {
	if f == nil || f.body() == nil || f.ftype() == nil {
		return false
	}
	if f.decl != nil {
		return x.runnerNames(f.file)[f.decl.Name.Name]
	}
	if x.calls(f.lit.Body)&(hasRun|hasHelper) != 0 {
		return true
	}
	if visiting[f.lit] {
		return false
	}
	if visiting == nil {
		visiting = map[*ast.FuncLit]bool{}
	}
	visiting[f.lit] = true
	return x.callsClosure(f.lit.Body, f.env, visiting)
}

// callsClosure reports whether body calls, by name, a function value
// bound in env that may start subtests.
func (x *fileCtx) callsClosure(body *ast.BlockStmt, env *scope, visiting map[*ast.FuncLit]bool) bool {
	for _, name := range x.callees[body] {
		if v, _, ok := env.lookup(name); ok {
			if fv, _ := v.(*funcVal); fv != nil && x.mayRun(fv, visiting) {
				return true
			}
		}
	}
	return false
}

// runsClosure records, for a call the walk does not follow that is given
// the T and a function literal that may start subtests (another
// package's cryptotest.TestAllImplementations(t, "aes", func(t
// *testing.T) {...})), that it may start subtests the listing cannot
// name.
func (x *fileCtx) runsClosure(call *ast.CallExpr, env *scope, fr *frame) bool {
	if fr.tvar == "" || x.closureArg(call) == nil ||
		!slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return mentions(a, fr.tvar) }) {
		return false
	}
	for _, a := range call.Args {
		if lit, ok := a.(*ast.FuncLit); ok && x.mayRun(&funcVal{lit: lit, env: env, file: x.cur}, nil) {
			x.dynamicCall(call, fr, "not followed")
			return true
		}
	}
	return false
}

// runningClosure reports whether one of a call's arguments is a function
// literal that takes a T and may start subtests: a helper given one may
// run it (withSetup(t, func(t *testing.T) { t.Run(...) })).
func (x *fileCtx) runningClosure(call *ast.CallExpr, env *scope) bool {
	if x.closureArg(call) == nil {
		return false
	}
	for _, a := range call.Args {
		if lit, ok := a.(*ast.FuncLit); ok && x.mayRun(&funcVal{lit: lit, env: env, file: x.cur}, nil) {
			return true
		}
	}
	return false
}

// closureArg is the first function literal among a call's arguments that
// takes a T or uses one it captures, nil when none.
func (x *fileCtx) closureArg(call *ast.CallExpr) *ast.FuncLit {
	if len(call.Args) < 2 {
		return nil
	}
	for _, a := range call.Args {
		lit, ok := a.(*ast.FuncLit)
		if !ok {
			continue
		}
		if len(testingParams(lit.Type, nil)) > 0 {
			return lit
		}
		for n := range x.tnames {
			if mentions(lit.Body, n) {
				return lit
			}
		}
	}
	return nil
}

// mayBeHelper reports whether a call by name in the current file may
// call a helper: a function of the file that may start subtests or holds
// a Run call, a runner of the package's other files, or a name that may
// hold a function value.
func (x *fileCtx) mayBeHelper(name string) bool {
	file := x.cur
	if fn := file.funcs[name]; fn != nil {
		return x.runnerNames(file)[name] || x.holdsRun(file, fn)
	}
	return x.pkgCtx != nil && x.pkgCtx.runners[name] || x.funcValueNames(file)[name]
}

// helperCall inlines call when it calls a helper, and reports whether it
// did (or recorded that it could not): then scan must not look into it.
func (x *fileCtx) helperCall(call *ast.CallExpr, env *scope, fr *frame) bool {
	if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
		return x.methodCall(call, sel, env, fr)
	}
	id, ok := ast.Unparen(call.Fun).(*ast.Ident)
	if !ok || len(call.Args) == 0 {
		return false
	}
	fv, _ := x.ident(id.Name, env).(*funcVal)
	if fv == nil || !x.mayRun(fv, nil) && !x.getsT(call, fv, fr) && !x.runningClosure(call, env) {
		return false
	}
	for _, a := range call.Args {
		x.scan(a, env, fr)
	}
	x.inline(call, fv, env, fr)
	return true
}

// getsT reports whether a declared function that is not among the
// runners (it has no parameter of a testing type) is given the T, as it
// is or wrapped, and holds a Run call: then it may start subtests too.
func (x *fileCtx) getsT(call *ast.CallExpr, fv *funcVal, fr *frame) bool {
	if fv.decl == nil || fr.tvar == "" || !slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return mentions(a, fr.tvar) }) {
		return false
	}
	return x.holdsRun(fv.file, fv.decl)
}

// holdsRun reports, once per function, whether its text holds a Run
// call (textRuns).
func (x *fileCtx) holdsRun(file *srcFile, fn *ast.FuncDecl) bool {
	runs, ok := x.textRunsMemo[fn]
	if !ok {
		runs = textRuns(x.text(file, fn.Body))
		x.textRunsMemo[fn] = runs
	}
	return runs
}

// mentionsT reports whether an argument of call uses a name that holds a
// T in this file (tnames).
func (x *fileCtx) mentionsT(call *ast.CallExpr) bool {
	for _, a := range call.Args {
		for n := range x.tnames {
			if mentions(a, n) {
				return true
			}
		}
	}
	return false
}

// methodCall inlines recv.m(..., t, ...) when m is a method of the file
// holding a Run call and recv a literal of its receiver type; when the
// receiver's type is not known, it records that the call may start
// subtests the listing cannot follow.
func (x *fileCtx) methodCall(call *ast.CallExpr, sel *ast.SelectorExpr, env *scope, fr *frame) bool {
	file := x.methodFile(sel.Sel.Name)
	if file == nil || len(call.Args) == 0 || fr.tvar == "" ||
		!slices.ContainsFunc(call.Args, func(a ast.Expr) bool { return mentions(a, fr.tvar) }) {
		return false
	}
	if id, ok := sel.X.(*ast.Ident); ok {
		if _, isPkg := x.cur.imports[id.Name]; isPkg {
			if _, _, shadowed := env.lookup(id.Name); !shadowed {
				return false // another package's function
			}
		}
	}
	for _, a := range call.Args {
		x.scan(a, env, fr)
	}
	recv := x.eval(sel.X, env, nil)
	var found *ast.FuncDecl
	if c, ok := recv.(*comp); ok {
		for _, m := range file.methods[sel.Sel.Name] {
			if sameType(deref(receiverType(m)), deref(c.typ)) {
				found = m
			}
		}
	}
	if found == nil {
		x.dynamicCall(call, fr, "method not followed")
		return true
	}
	x.inline(call, &funcVal{decl: found, env: file.pkg, file: file, recv: recv}, env, fr)
	return true
}

// methodFile is the file whose methods named name hold a Run call: the
// current one, else the sibling that declares them; nil when none.
func (x *fileCtx) methodFile(name string) *srcFile {
	if x.methodHoldsRun(x.cur, name) {
		return x.cur
	}
	if x.pkgCtx != nil && x.pkgCtx.runners["."+name] {
		if f := x.pkgCtx.declaring("." + name); f != nil && x.methodHoldsRun(f, name) {
			return f
		}
	}
	return nil
}

// methodHoldsRun reports whether a method of that name in file holds a
// Run call (textRuns).
func (x *fileCtx) methodHoldsRun(file *srcFile, name string) bool {
	for _, m := range file.methods[name] {
		if x.holdsRun(file, m) {
			return true
		}
	}
	return false
}

// receiverType is a method's receiver type without its type parameters.
func receiverType(m *ast.FuncDecl) ast.Expr {
	if m.Recv == nil || len(m.Recv.List) != 1 {
		return nil
	}
	t := m.Recv.List[0].Type
	if s, ok := t.(*ast.StarExpr); ok {
		t = s.X
	}
	switch g := t.(type) {
	case *ast.IndexExpr:
		return g.X
	case *ast.IndexListExpr:
		return g.X
	}
	return t
}

// inline walks the body of the helper fv called by call, with its
// parameters bound to the arguments, as part of the test of fr (or, for
// a closure that captures its T, of the test it was defined in).
func (x *fileCtx) inline(call *ast.CallExpr, fv *funcVal, env *scope, fr *frame) {
	body := newScope(fv.env, true)
	if fv.decl != nil && fv.decl.Recv != nil && len(fv.decl.Recv.List) == 1 {
		for _, n := range fv.decl.Recv.List[0].Names {
			body.bind(n.Name, fv.recv)
		}
	}
	h, ok := x.bindParams(call, fv, env, body, fr)
	if !ok {
		return
	}
	if h == nil {
		x.dynamicCall(call, fr, "gets the T in a form not followed")
		return
	}
	if x.depth >= maxInline {
		x.dynamicCall(call, fr, "nested too deep")
		return
	}
	if h.callLine == 0 {
		h.callLine = fr.rowLine
		if h.callLine == 0 {
			h.callLine = x.line(call.Pos())
		}
	}
	if fv.decl != nil {
		h.helper = fv.decl.Name.Name // a literal's code belongs to where it is written
	}
	h.rowLine = 0
	body.fr = h
	saved := x.cur
	x.cur = fv.file
	x.depth++
	x.walkStmts(fv.body().List, body, h)
	x.depth--
	x.cur = saved
	if h.skip && !fr.skip && !fr.dynamic && !fr.uncertain && h.rec == fr.rec {
		fr.skip = true // an unconditional Skip in the helper skips the rest of the test
	}
}

// bindParams binds fv's parameters in body to the call's arguments and
// picks the frame the helper's code runs in: the caller's with the T
// renamed to the parameter that receives it, or, for a closure that
// captures a T, the frame it was defined in. h is nil when the helper
// gets a T the walk cannot name (wrapped, converted); ok is false when it
// gets none, so it cannot start subtests of this test.
func (x *fileCtx) bindParams(call *ast.CallExpr, fv *funcVal, env, body *scope, fr *frame) (h *frame, ok bool) {
	var params []*ast.Field
	if fv.ftype().Params != nil {
		params = fv.ftype().Params.List
	}
	tparam, wrapped, shadowed := "", false, map[string]bool{}
	i := 0
	for pi, p := range params {
		names := p.Names
		if len(names) == 0 {
			names = []*ast.Ident{{Name: "_"}}
		}
		for _, n := range names {
			shadowed[n.Name] = true
			if _, variadic := p.Type.(*ast.Ellipsis); variadic && pi == len(params)-1 && !call.Ellipsis.IsValid() {
				body.bind(n.Name, x.variadic(call.Args[min(i, len(call.Args)):], p.Type.(*ast.Ellipsis), env))
				i = len(call.Args)
				continue
			}
			if i >= len(call.Args) {
				body.bind(n.Name, nil)
				continue
			}
			a := call.Args[i]
			i++
			if id, isID := ast.Unparen(a).(*ast.Ident); isID && fr.tvar != "" && id.Name == fr.tvar {
				if n.Name != "_" {
					tparam = n.Name
				}
				body.bind(n.Name, nil)
				continue
			}
			wrapped = wrapped || fr.tvar != "" && mentions(a, fr.tvar)
			body.bind(n.Name, x.eval(a, env, p.Type))
		}
	}
	if tparam != "" {
		c := *fr
		c.tvar = tparam
		return &c, true
	}
	if def := fv.env.frame(); fv.lit != nil && def != nil && def.tvar != "" && !shadowed[def.tvar] {
		c := *def
		c.dynamic = c.dynamic || fr.dynamic
		c.uncertain = c.uncertain || fr.uncertain
		c.callLine = fr.callLine
		if def.parent != fr.parent {
			c.callLine = 0
		}
		return &c, true
	}
	return nil, wrapped
}

// variadic is the slice a variadic parameter receives: a literal of the
// call's remaining arguments, evaluated in the caller's scope.
func (x *fileCtx) variadic(args []ast.Expr, ell *ast.Ellipsis, env *scope) value {
	lit := &ast.CompositeLit{Type: &ast.ArrayType{Elt: ell.Elt}, Elts: args}
	return &comp{lit: lit, typ: lit.Type, env: env, args: true}
}

// mentions reports whether the expression uses the name.
func mentions(e ast.Node, name string) bool {
	found := false
	inspect(e, func(n ast.Node) bool {
		if id, ok := n.(*ast.Ident); ok && id.Name == name {
			found = true
		}
		return !found
	})
	return found
}

// dynamicCall records, once per test and call text, that call may start
// subtests the listing cannot name, and why.
func (x *fileCtx) dynamicCall(call *ast.CallExpr, fr *frame, why string) {
	x.dynamicNamed(fr.parent+"/{"+x.callText(call)+": "+why+"}", call, fr)
}

// callText is a call's function and a short form of its arguments:
// check(t, tc.name, …).
func (x *fileCtx) callText(call *ast.CallExpr) string {
	var b strings.Builder
	b.WriteString(x.source(call.Fun))
	b.WriteByte('(')
	for i, a := range call.Args {
		if i > 0 {
			b.WriteString(", ")
		}
		s := x.source(a)
		if len(s) > 24 || b.Len() > 48 {
			b.WriteString("…")
			break
		}
		b.WriteString(s)
	}
	b.WriteByte(')')
	return b.String()
}

// recLine is the line of a record made at pos: the helper call's (or
// its table row's) inside an inlined helper, else the table row's, else
// pos's own.
func (x *fileCtx) recLine(pos token.Pos, fr *frame) int {
	switch {
	case fr.callLine != 0:
		return fr.callLine
	case fr.rowLine != 0:
		return fr.rowLine
	}
	return x.line(pos)
}

// stopProblem is the warning of a file whose walk stopped inside a
// helper of another file: its line is the call's.
func (x *fileCtx) stopProblem(pos token.Pos, fr *frame) testdex.Problem {
	line := x.line(pos)
	if line == 0 {
		line = fr.callLine
	}
	return testdex.Problem{Severity: testdex.SevWarning, Line: line,
		Message: "subtest listing stopped here: the file needs too much unrolling"}
}
