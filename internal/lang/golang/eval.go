package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// eval evaluates e in env as far as it can be known without running code.
// hint is the type implied by an enclosing composite literal for an elided
// one; it may be nil.
func (x *fileCtx) eval(e ast.Expr, env *scope, hint ast.Expr) value {
	switch e := e.(type) {
	case *ast.BasicLit:
		return x.literal(e)
	case *ast.Ident:
		return x.ident(e.Name, env)
	case *ast.ParenExpr:
		return x.eval(e.X, env, hint)
	case *ast.BinaryExpr:
		a, _ := x.eval(e.X, env, nil).(*cval)
		b, _ := x.eval(e.Y, env, nil).(*cval)
		if a == nil || b == nil {
			return nil
		}
		return binaryOp(a, e.Op, b)
	case *ast.UnaryExpr:
		if e.Op == token.AND {
			return x.eval(e.X, env, deref(hint))
		}
		a, _ := x.eval(e.X, env, nil).(*cval)
		if a == nil {
			return nil
		}
		return unaryOp(e.Op, a)
	case *ast.CompositeLit:
		t := e.Type
		if t == nil {
			t = deref(hint)
		}
		return &comp{lit: e, typ: t, env: env}
	case *ast.FuncLit:
		return &funcVal{lit: e, env: env, file: env.srcFile()}
	case *ast.SelectorExpr:
		c, _ := x.eval(e.X, env, nil).(*comp)
		if c == nil {
			return nil
		}
		return x.field(c, e.Sel.Name)
	case *ast.IndexExpr:
		return x.index(e, env)
	case *ast.SliceExpr:
		return x.slice(e, env)
	case *ast.CallExpr:
		return x.call(e, env)
	}
	return nil
}

// literal is the constant a literal denotes, made once per literal (an
// unrolled table evaluates its rows' literals once per iteration): a
// cval is never changed once made.
func (x *fileCtx) literal(e *ast.BasicLit) value {
	if v, ok := x.lits[e]; ok {
		return v
	}
	var res value
	if v := constant.MakeFromLiteral(e.Value, e.Kind, 0); v.Kind() == constant.Unknown {
		res = nil
	} else if e.Kind == token.CHAR {
		res = &cval{v: v, typ: "rune"}
	} else {
		res = &cval{v: v}
	}
	x.lits[e] = res
	return res
}

// ident looks a name up: bindings first, then the predeclared constants.
func (x *fileCtx) ident(name string, env *scope) value {
	if v, s, ok := env.lookup(name); ok {
		return x.resolve(v, s)
	}
	switch name {
	case "true":
		return &cval{v: constant.MakeBool(true)}
	case "false":
		return &cval{v: constant.MakeBool(false)}
	}
	if fv := x.funcNamed(name, env.srcFile()); fv != nil {
		return fv
	}
	return nil
}

// deref drops one pointer from a type: the elided &T of []*T{{...}}.
func deref(t ast.Expr) ast.Expr {
	if s, ok := t.(*ast.StarExpr); ok {
		return s.X
	}
	return t
}

// binaryOp applies op to two constants as the compiler would, or returns
// nil for anything the compiler would reject (go/constant panics there).
// cvalTrue and cvalFalse are the untyped results of comparisons, shared:
// a cval is never changed once made, and an unrolled loop compares its
// counter once per row.
var cvalTrue, cvalFalse = &cval{v: constant.MakeBool(true)}, &cval{v: constant.MakeBool(false)}

func binaryOp(a *cval, op token.Token, b *cval) (res value) {
	defer func() {
		if recover() != nil {
			res = nil
		}
	}()
	typ := a.typ
	if typ == "" || typ == "rune" && b.typ != "" {
		typ = b.typ
	}
	switch op {
	case token.EQL, token.NEQ, token.LSS, token.LEQ, token.GTR, token.GEQ:
		if constant.Compare(a.v, op, b.v) {
			return cvalTrue
		}
		return cvalFalse
	case token.SHL, token.SHR:
		s, ok := constant.Uint64Val(constant.ToInt(b.v))
		if !ok || s > 1024 || a.v.Kind() != constant.Int {
			return nil
		}
		return &cval{v: constant.Shift(a.v, op, uint(s)), typ: a.typ}
	case token.QUO, token.REM:
		if b.v.Kind() != constant.String && constant.Sign(b.v) == 0 {
			return nil
		}
		if op == token.QUO && a.v.Kind() == constant.Int && b.v.Kind() == constant.Int && !isFloatType(typ) {
			op = token.QUO_ASSIGN // integer division
		}
	}
	return &cval{v: constant.BinaryOp(a.v, op, b.v), typ: typ}
}

func isFloatType(t string) bool {
	switch t {
	case "float32", "float64", "complex64", "complex128":
		return true
	}
	return false
}

// unaryOp applies +, -, ! or ^ to a constant, nil when invalid.
func unaryOp(op token.Token, a *cval) (res value) {
	defer func() {
		if recover() != nil {
			res = nil
		}
	}()
	switch op {
	case token.ADD, token.SUB, token.NOT, token.XOR:
		return &cval{v: constant.UnaryOp(op, a.v, 0), typ: a.typ}
	}
	return nil
}

// stringOf returns the string a value holds, if it is a string constant.
func stringOf(v value) (string, bool) {
	c, ok := v.(*cval)
	if !ok || c.v.Kind() != constant.String {
		return "", false
	}
	return constant.StringVal(c.v), true
}

// boolOf returns the boolean a value holds, if it is a boolean constant.
func boolOf(v value) (val, ok bool) {
	c, ok := v.(*cval)
	if !ok || c.v.Kind() != constant.Bool {
		return false, false
	}
	return constant.BoolVal(c.v), true
}
