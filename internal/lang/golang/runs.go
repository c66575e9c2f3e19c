package golang

import (
	"go/ast"
	"strconv"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// scan finds the t.Run (or f.Add, f.Fuzz) calls of an expression in
// evaluation order. It does not enter function literals other than those
// passed to t.Run: a closure's calls run when (and if) it is called.
func (x *fileCtx) scan(e ast.Expr, env *scope, fr *frame) {
	if e == nil || fr.tvar == "" || !x.mayStart(e) {
		return
	}
	ast.Inspect(e, func(n ast.Node) bool {
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
			}
		}
		return true
	})
}

// mayStart reports, once per expression, whether it holds (outside
// function literals) a call of a method named Run, Add or Fuzz: only
// those make scan do anything, and unrolled loops scan the same
// expressions once per row.
func (x *fileCtx) mayStart(e ast.Expr) bool {
	if v, ok := x.scans[e]; ok {
		return v
	}
	found := false
	ast.Inspect(e, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.FuncLit:
			return false
		case *ast.CallExpr:
			if sel, ok := n.Fun.(*ast.SelectorExpr); ok {
				switch sel.Sel.Name {
				case "Run", "Add", "Fuzz":
					found = true
				}
			}
		}
		return !found
	})
	x.scans[e] = found
	return found
}

// run records the subtest started by t.Run(name, f) and walks f when it is
// a function literal, with its own *testing.T parameter.
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
	line := fr.rowLine
	if line == 0 {
		line = x.line(call.Pos())
	}
	inner := &frame{parent: full, run: runPattern(full), rec: len(x.out), skip: fr.skip}
	if !x.add(lang.Test{Kind: testdex.KindSubtest, Name: full, Parent: fr.parent,
		Line: line, Run: inner.run, Skip: fr.skip}) {
		return
	}
	fv, _ := x.eval(call.Args[1], env, nil).(*funcVal)
	if fv == nil || fv.lit.Body == nil || fv.lit.Type.Params == nil || x.calls(fv.lit.Body)&(hasRun|hasSkip) == 0 {
		return // nothing in its body could add a record or mark it skipped (as testFunc)
	}
	body := newScope(env, true)
	for i, f := range fv.lit.Type.Params.List {
		for _, n := range f.Names {
			body.bind(n.Name, nil)
			if i == 0 && len(f.Names) == 1 {
				inner.tvar = n.Name
			}
		}
	}
	x.walkStmts(fv.lit.Body.List, body, inner)
}

// dynamic records, once per parent and source text, a subtest whose name
// is only known at run time. Running it runs its parent.
func (x *fileCtx) dynamic(call *ast.CallExpr, fr *frame) {
	x.dynamicNamed(fr.parent+"/{"+x.source(call.Args[0])+"}", call, fr)
}

func (x *fileCtx) dynamicNamed(name string, call *ast.CallExpr, fr *frame) {
	x.add(lang.Test{Kind: testdex.KindSubtest, Name: name, Parent: fr.parent,
		Line: x.line(call.Pos()), Dynamic: true, Skip: fr.skip, Run: fr.run})
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
	line := fr.rowLine
	if line == 0 {
		line = x.line(call.Pos())
	}
	x.add(lang.Test{Kind: testdex.KindSubtest, Name: name, Parent: fr.parent,
		Line: line, Run: runPattern(name), Skip: fr.skip})
}

// source is the text of an expression with line breaks and the indentation
// after them folded into single spaces.
func (x *fileCtx) source(e ast.Expr) string {
	start, end := x.fset.Position(e.Pos()).Offset, x.fset.Position(e.End()).Offset
	if start < 0 || end > len(x.src) || start > end {
		return "?"
	}
	b := make([]byte, 0, end-start)
	for i := start; i < end; i++ {
		c := x.src[i]
		if c == '\n' || c == '\r' {
			for i+1 < end && (x.src[i+1] == ' ' || x.src[i+1] == '\t' || x.src[i+1] == '\n' || x.src[i+1] == '\r') {
				i++
			}
			c = ' '
		}
		b = append(b, c)
	}
	return string(b)
}
