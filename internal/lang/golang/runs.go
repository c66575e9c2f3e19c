package golang

import (
	"go/ast"
	"go/token"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// scan finds the t.Run (or f.Add, f.Fuzz) calls of an expression, and
// the calls of helpers that make them, in evaluation order. It does not
// enter function literals other than those passed to t.Run or to a
// helper: a closure's calls run when (and if) it is called.
func (x *fileCtx) scan(e ast.Expr, env *scope, fr *frame) {
	if e == nil || fr.tvar == "" || !x.mayStart(e) {
		return
	}
	inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			switch m := methodOf(n, fr.tvar); {
			case m == "Run" && !fr.fuzz:
				x.run(n, env, fr)
				return false
			case m == "Add" && fr.fuzz:
				x.seed(n, fr)
				return false
			case m == "Fuzz" && fr.fuzz && !fr.dynamic && !fr.uncertain:
				fr.seeds.done = true
			case m == "" && !fr.fuzz:
				return !x.helperCall(n, env, fr) && !x.runsClosure(n, env, fr)
			}
		}
		return true
	})
}

// mayStart reports, once per expression, whether it holds (outside
// function literals) a call of a method named Run, Add or Fuzz, or a
// call by name that may be a helper's: only those make scan do
// anything, and unrolled loops scan the same expressions once per row.
func (x *fileCtx) mayStart(e ast.Expr) bool {
	if v, ok := x.scans[e]; ok {
		return v
	}
	found := false
	inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			switch fun := n.Fun.(type) {
			case *ast.SelectorExpr:
				switch fun.Sel.Name {
				case "Run", "Add", "Fuzz":
					found = true
				default:
					found = len(n.Args) > 0 && (x.cur.methods[fun.Sel.Name] != nil || x.pkgCtx != nil && x.pkgCtx.runners["."+fun.Sel.Name])
				}
			case *ast.Ident:
				found = len(n.Args) > 0 && x.mayBeHelper(fun.Name)
			}
			found = found || x.closureArg(n) != nil
		}
		return !found
	})
	x.scans[e] = found
	return found
}

// run records the subtest started by t.Run(name, f) and walks f when it is
// a function literal or a function of the package, with its own
// *testing.T parameter.
func (x *fileCtx) run(call *ast.CallExpr, env *scope, fr *frame) {
	if len(call.Args) != 2 {
		return
	}
	if fr.dynamic {
		x.dynamic(call, fr)
		return
	}
	sub, ok := stringOf(x.eval(call.Args[0], env, nil))
	if !ok {
		x.dynamic(call, fr)
		return
	}
	full := x.names.name(fr.parent, sub)
	inner := &frame{parent: full, run: subPattern(fr, full), rec: len(x.out), skip: fr.skip, callLine: fr.callLine, helper: fr.helper}
	if !x.addNamed(lang.Test{Kind: testdex.KindSubtest, Name: full, Parent: fr.parent,
		Line: x.recLine(call.Pos(), fr), Run: inner.run, Skip: fr.skip}) {
		// The same subtest on another path (ifStmt): one record, skipped
		// only if every path skips it, holding what each path starts.
		i := x.seen[full]
		if r := &x.out[i]; r.Dynamic || r.Parent != fr.parent || r.Kind != testdex.KindSubtest {
			return
		}
		x.out[i].Skip = x.out[i].Skip && fr.skip
		inner.rec = i
	}
	if lit, ok := call.Args[1].(*ast.FuncLit); ok && (lit.Body == nil || lit.Type.Params == nil ||
		x.calls(lit.Body)&(hasRun|hasSkip|hasHelper) == 0 && !x.callsClosure(lit.Body, env, nil)) {
		return // as below, without making its funcVal: most rows of a table
	}
	fv, _ := x.eval(call.Args[1], env, nil).(*funcVal)
	if fv == nil || fv.body() == nil || fv.ftype().Params == nil ||
		x.calls(fv.body())&(hasRun|hasSkip|hasHelper) == 0 && !x.callsClosure(fv.body(), fv.env, nil) {
		return // nothing in its body could add a record or mark it skipped (as testFunc)
	}
	body := newScope(fv.env, true)
	body.fr = inner
	for i, f := range fv.ftype().Params.List {
		for _, n := range f.Names {
			body.bind(n.Name, nil)
			if i == 0 && len(f.Names) == 1 {
				inner.tvar = n.Name
			}
		}
	}
	saved := x.cur
	x.cur = fv.file
	x.walkStmts(fv.body().List, body, inner)
	x.cur = saved
}

// subPattern is runPattern(full) for a subtest full of the test fr:
// its parent's pattern (fr.run, always runPattern(fr.parent)) and the
// levels full adds, which saves quoting the parent's levels again for
// each row of an unrolled table.
func subPattern(fr *frame, full string) string {
	p := fr.parent
	if len(full) <= len(p) || full[len(p)] != '/' || full[:len(p)] != p {
		return runPattern(full)
	}
	rest := full[len(p)+1:]
	var b strings.Builder
	b.Grow(len(fr.run) + len(rest) + 2*strings.Count(rest, "/") + 3)
	b.WriteString(fr.run)
	b.WriteByte('/')
	writePattern(&b, rest)
	return b.String()
}

// dynamic records, once per parent and source text, a subtest whose name
// is only known at run time. Running it runs its parent. Inside a helper
// the name says which: TestX/{check: name}.
func (x *fileCtx) dynamic(call *ast.CallExpr, fr *frame) {
	what := x.source(call.Args[0])
	if fr.helper != "" {
		what = fr.helper + ": " + what
	}
	x.dynamicNamed(fr.parent+"/{"+what+"}", call, fr)
}

func (x *fileCtx) dynamicNamed(name string, call *ast.CallExpr, fr *frame) {
	line := fr.callLine
	if line == 0 {
		line = x.line(call.Pos())
	}
	x.add(lang.Test{Kind: testdex.KindSubtest, Name: name, Parent: fr.parent,
		Line: line, Dynamic: true, Skip: fr.skip, Run: fr.run})
}

// seed records the seed corpus entry f.Add adds: FuzzX/seed#N, numbered
// from 0 in call order as testing numbers them. Once a seed's position is
// uncertain (a loop over unknown data, a branch) the rest are covered by
// one Dynamic record FuzzX/{seed#?}.
func (x *fileCtx) seed(call *ast.CallExpr, fr *frame) {
	st := fr.seeds
	if st == nil || st.done || st.dynamic {
		return
	}
	if fr.dynamic || fr.uncertain {
		st.dynamic = true
		x.dynamicNamed(fr.parent+"/{seed#?}", call, fr)
		return
	}
	name := fr.parent + "/seed#" + strconv.Itoa(st.n)
	st.n++
	x.add(lang.Test{Kind: testdex.KindSubtest, Name: name, Parent: fr.parent,
		Line: x.recLine(call.Pos(), fr), Run: subPattern(fr, name), Skip: fr.skip})
}

// source is the text of an expression with line breaks and the indentation
// after them folded into single spaces.
func (x *fileCtx) source(e ast.Expr) string {
	src := x.srcOf(e.Pos())
	start, end := x.fset.Position(e.Pos()).Offset, x.fset.Position(e.End()).Offset
	if start < 0 || end > len(src) || start > end {
		return "?"
	}
	b := make([]byte, 0, end-start)
	for i := start; i < end; i++ {
		c := src[i]
		if c == '\n' || c == '\r' {
			for i+1 < end && (src[i+1] == ' ' || src[i+1] == '\t' || src[i+1] == '\n' || src[i+1] == '\r') {
				i++
			}
			c = ' '
		}
		b = append(b, c)
	}
	return string(b)
}

// srcOf is the text of the file that holds pos: the main file or one of
// the package's other files the walk has entered.
func (x *fileCtx) srcOf(pos token.Pos) []byte {
	if x.inMain(pos) || x.pkgCtx == nil {
		return x.main.src
	}
	if f := x.pkgCtx.fileAt(x.fset.File(pos)); f != nil {
		return f.src
	}
	return nil
}
