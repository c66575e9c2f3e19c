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
	if !x.startsTests(s.Body, fr) {
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
// included), a call that may start a subtest: x.Run(a, b) in a test or
// benchmark, x.Add(...) in a fuzz target. Only then can unrolling it
// produce records; loops of plain computation are walked once instead,
// which keeps their cost linear. The answer is remembered per body.
func (x *fileCtx) startsTests(body *ast.BlockStmt, fr *frame) bool {
	bits := x.calls(body)
	if fr.fuzz {
		return bits&hasAdd != 0
	}
	return bits&hasRun != 0
}

// calls returns, once per body, which of the calls that matter to the
// walk it holds anywhere (closures included): hasRun, hasAdd, hasSkip.
func (x *fileCtx) calls(body *ast.BlockStmt) uint8 {
	bits, ok := x.runs[body]
	if !ok {
		ast.Inspect(body, func(n ast.Node) bool {
			if call, ok := n.(*ast.CallExpr); ok {
				if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
					switch {
					case sel.Sel.Name == "Run" && len(call.Args) == 2:
						bits |= hasRun
					case sel.Sel.Name == "Add":
						bits |= hasAdd
					case sel.Sel.Name == "Skip" || sel.Sel.Name == "Skipf" || sel.Sel.Name == "SkipNow":
						bits |= hasSkip
					}
				}
			}
			return true
		})
		x.runs[body] = bits
	}
	return bits
}

// The bits of fileCtx.runs.
const (
	hasRun uint8 = 1 << iota
	hasAdd
	hasSkip
)

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
	if !x.startsTests(s.Body, fr) || !x.finite(s, env) {
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
