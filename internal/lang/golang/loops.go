package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// maxIterations bounds the unrolling of one loop; longer loops are treated
// as loops over unknown data.
const maxIterations = 1 << 14

// rangeStmt unrolls a range loop over a known literal or constant integer,
// walking the body once per element with the key and value bound; over
// anything else the body is walked once as dynamic.
func (x *fileCtx) rangeStmt(s *ast.RangeStmt, env *scope, fr *frame) flow {
	x.scan(s.X, env, fr)
	if !x.startsTests(s.Body, env, fr) && !x.fewArgs(s.X, env) {
		if x.empty(s.X, env) {
			return flowNormal // its assignments never happen
		}
		it := newScope(env, true)
		x.bindRange(s, it, pair{})
		return x.dynamicBody(s.Body, it, fr)
	}
	pairs, ok := x.rangeOver(x.eval(s.X, env, nil))
	if !ok || len(pairs) > maxIterations || len(pairs) > x.budget {
		it := newScope(env, true)
		x.bindRange(s, it, pair{})
		return x.dynamicBody(s.Body, it, fr)
	}
	saved := fr.rowLine
	defer func() { fr.rowLine = saved }()
	for _, p := range pairs {
		it := newScope(env, false)
		x.bindRange(s, it, p)
		if p.line > 0 {
			fr.rowLine = p.line
		}
		switch x.walkStmts(s.Body.List, newScope(it, false), fr) {
		case flowBreak:
			return flowNormal
		case flowReturn:
			return flowReturn
		}
	}
	return flowNormal
}

// startsTests reports whether a loop body contains, anywhere (closures
// included), a call that may start a subtest: x.Run(a, b) or a call of a
// helper in a test or benchmark, x.Add(...) in a fuzz target. Only then
// can unrolling it produce records; loops of plain computation are
// walked once instead, which keeps their cost linear. The syntactic
// answer is remembered per body.
func (x *fileCtx) startsTests(body *ast.BlockStmt, env *scope, fr *frame) bool {
	bits := x.calls(body)
	if fr.fuzz {
		return bits&hasAdd != 0
	}
	return bits&(hasRun|hasHelper) != 0 || x.callsClosure(body, env, nil)
}

// calls returns, once per body, which of the calls that matter to the
// walk it holds anywhere (closures included): hasRun, hasAdd, hasSkip,
// and hasHelper for a call of a function of the package that may start
// subtests (runnerNames). The names it calls that may hold function
// values (funcValueNames) go to x.callees; in a file extracted alone,
// those it passes a T to and does not declare go to x.tcalls.
func (x *fileCtx) calls(body *ast.BlockStmt) uint8 {
	bits, ok := x.runs[body]
	if ok {
		return bits
	}
	file := x.fileAt(body.Pos())
	runners := x.runnerNames(file)
	var callees []string
	inspect(body, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		switch fun := call.Fun.(type) {
		case *ast.SelectorExpr:
			switch {
			case fun.Sel.Name == "Run" && len(call.Args) == 2:
				bits |= hasRun
			case fun.Sel.Name == "Add":
				bits |= hasAdd
			case fun.Sel.Name == "Skip" || fun.Sel.Name == "Skipf" || fun.Sel.Name == "SkipNow":
				bits |= hasSkip
			case len(call.Args) == 0:
			case file.methods[fun.Sel.Name] != nil && x.methodHoldsRun(file, fun.Sel.Name) && x.mentionsT(call),
				x.pkgCtx != nil && x.pkgCtx.runners["."+fun.Sel.Name] && x.mentionsT(call):
				bits |= hasHelper // a method given the T (methodCall)
			case x.pkgCtx == nil && file == x.main && file.methods[fun.Sel.Name] == nil && x.varCallT(fun, call):
				x.tcalls["."+fun.Sel.Name] = true // maybe a method of another file
			}
		case *ast.Ident:
			if len(call.Args) == 0 {
				break
			}
			name := fun.Name
			if fn := file.funcs[name]; fn != nil {
				if runners[name] || x.holdsRun(file, fn) && x.mentionsT(call) {
					bits |= hasHelper // a runner, or given the T wrapped (getsT)
				}
				break
			}
			switch {
			case x.pkgCtx != nil && x.pkgCtx.runners[name]:
				bits |= hasHelper
			case x.funcValueNames(file)[name]:
				callees = append(callees, name)
			case x.pkgCtx == nil && file == x.main && !builtins[name] && x.passesT(call):
				x.tcalls[name] = true
			}
		}
		return true
	})
	x.runs[body] = bits
	if len(callees) > 0 {
		x.callees[body] = callees
	}
	return bits
}

// The bits of fileCtx.runs.
const (
	hasRun uint8 = 1 << iota
	hasAdd
	hasSkip
	hasHelper
)

// builtins are the predeclared functions and conversions, never helpers.
var builtins = setOf("append cap clear close complex copy delete imag len make max min new panic print println real recover " +
	"bool string int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr float32 float64 complex64 complex128 byte rune any error")

// rangeOver lists what ranging over v yields, if known.
func (x *fileCtx) rangeOver(v value) ([]pair, bool) {
	switch v := v.(type) {
	case *comp:
		return x.elems(v)
	case *cval:
		if v.v.Kind() != constant.Int {
			return nil, false
		}
		n, ok := constant.Int64Val(v.v)
		if !ok || n > maxIterations {
			return nil, false
		}
		out := make([]pair, 0, max(n, 0))
		for i := int64(0); i < n; i++ {
			out = append(out, pair{k: &cval{v: constant.MakeInt64(i), typ: v.typ}})
		}
		return out, true
	}
	return nil, false
}

// fewArgs reports whether e is a helper's variadic parameter given a few
// arguments (run(t, f, opts...)): a loop over them is unrolled even when
// it starts no subtest, because what it assigns (the options) decides
// which subtests the helper starts.
func (x *fileCtx) fewArgs(e ast.Expr, env *scope) bool {
	id, ok := e.(*ast.Ident)
	if !ok {
		return false
	}
	c, _ := x.ident(id.Name, env).(*comp)
	return c != nil && c.args && len(c.lit.Elts) <= 8
}

// empty reports whether ranging over e is known to yield nothing: an
// empty literal (a variadic parameter given no arguments) or a constant
// zero.
func (x *fileCtx) empty(e ast.Expr, env *scope) bool {
	switch v := x.eval(e, env, nil).(type) {
	case *comp:
		u, _ := x.underlying(v.typ, v.env)
		switch t := u.(type) {
		case *ast.ArrayType:
			return len(v.lit.Elts) == 0 && t.Len == nil
		case *ast.MapType:
			return len(v.lit.Elts) == 0
		}
	case *cval:
		return v.v.Kind() == constant.Int && constant.Sign(v.v) <= 0
	}
	return false
}

// bindRange binds (:=) or assigns (=) the key and value of one iteration.
func (x *fileCtx) bindRange(s *ast.RangeStmt, env *scope, p pair) {
	for _, b := range []struct {
		e ast.Expr
		v value
	}{{s.Key, p.k}, {s.Value, p.v}} {
		id, ok := b.e.(*ast.Ident)
		if !ok {
			continue
		}
		if s.Tok == token.DEFINE {
			env.bind(id.Name, b.v)
		} else {
			env.assign(id.Name, b.v)
		}
	}
}

// dynamicBody walks a loop body whose iterations are unknown: every t.Run
// in it becomes one Dynamic record.
func (x *fileCtx) dynamicBody(body *ast.BlockStmt, env *scope, fr *frame) flow {
	d := *fr
	d.dynamic = true
	x.walkStmts(body.List, newScope(env, true), &d)
	return flowNormal
}

// forStmt unrolls a three-clause loop whose condition stays constant
// (for i := 0; i < 3; i++), after checking on a scratch scope that it ends
// within maxIterations; otherwise the body is walked once as dynamic.
func (x *fileCtx) forStmt(s *ast.ForStmt, env *scope, fr *frame) flow {
	if !x.startsTests(s.Body, env, fr) || !x.finite(s, env) {
		loop := newScope(env, true)
		if s.Init != nil {
			x.walkStmt(s.Init, loop, fr)
		}
		x.scan(s.Cond, loop, fr)
		return x.dynamicBody(s.Body, loop, fr)
	}
	loop := newScope(env, false)
	if s.Init != nil {
		x.walkStmt(s.Init, loop, fr)
	}
	for i := 0; i < maxIterations; i++ {
		if c, ok := boolOf(x.eval(s.Cond, loop, nil)); !ok || !c {
			break
		}
		switch x.walkStmts(s.Body.List, newScope(loop, false), fr) {
		case flowBreak:
			return flowNormal
		case flowReturn:
			return flowReturn
		}
		if s.Post != nil {
			x.walkStmt(s.Post, loop, &frame{})
		}
	}
	return flowNormal
}

// finite runs the loop's header alone (init, cond, post) and reports
// whether the condition is always known and turns false in time.
func (x *fileCtx) finite(s *ast.ForStmt, env *scope) bool {
	if s.Cond == nil {
		return false
	}
	scratch, none := newScope(env, false), &frame{}
	if s.Init != nil {
		x.walkStmt(s.Init, scratch, none)
	}
	for i := 0; i <= maxIterations && i <= x.budget; i++ {
		c, ok := boolOf(x.eval(s.Cond, scratch, nil))
		if !ok {
			return false
		}
		if !c {
			return true
		}
		if s.Post != nil {
			x.walkStmt(s.Post, scratch, none)
		}
	}
	return false
}
