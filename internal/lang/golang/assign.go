package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// assignStmt finds t.Run calls on the right-hand side, then binds (:=) or
// updates (=, op=) the variables on the left.
func (x *fileCtx) assignStmt(s *ast.AssignStmt, env *scope, fr *frame) {
	for _, r := range s.Rhs {
		x.scan(r, env, fr)
	}
	switch s.Tok {
	case token.DEFINE, token.ASSIGN:
	default:
		if len(s.Lhs) == 1 && len(s.Rhs) == 1 {
			x.opAssign(s.Lhs[0], opOf(s.Tok), s.Rhs[0], env)
		}
		return
	}
	vals := make([]value, len(s.Lhs))
	if len(s.Lhs) == len(s.Rhs) {
		for i, r := range s.Rhs {
			vals[i] = x.eval(r, env, nil)
		}
	}
	for i, l := range s.Lhs {
		id, ok := l.(*ast.Ident)
		if !ok {
			continue
		}
		if s.Tok == token.DEFINE {
			env.bind(id.Name, vals[i])
			continue
		}
		env.assign(id.Name, vals[i])
	}
}

// opAssign is v op= e on a variable.
func (x *fileCtx) opAssign(l ast.Expr, op token.Token, e ast.Expr, env *scope) {
	if _, ok := l.(*ast.Ident); ok {
		b, _ := x.eval(e, env, nil).(*cval)
		x.assignOp(l, op, b, env)
	}
}

// cvalOne is the untyped 1 that i++ and i-- add or subtract, shared as
// cvalTrue is.
var cvalOne = &cval{v: constant.MakeInt64(1)}

// assignOp is v op= b on a variable, b nil when unknown.
func (x *fileCtx) assignOp(l ast.Expr, op token.Token, b *cval, env *scope) {
	id, ok := l.(*ast.Ident)
	if !ok {
		return
	}
	a, _ := x.ident(id.Name, env).(*cval)
	var v value
	if a != nil && b != nil {
		v = binaryOp(a, op, b)
	}
	env.assign(id.Name, v)
}

// opOf maps an op= token to its operator.
func opOf(t token.Token) token.Token {
	switch t {
	case token.ADD_ASSIGN:
		return token.ADD
	case token.SUB_ASSIGN:
		return token.SUB
	case token.MUL_ASSIGN:
		return token.MUL
	case token.QUO_ASSIGN:
		return token.QUO
	case token.REM_ASSIGN:
		return token.REM
	case token.AND_ASSIGN:
		return token.AND
	case token.OR_ASSIGN:
		return token.OR
	case token.XOR_ASSIGN:
		return token.XOR
	case token.SHL_ASSIGN:
		return token.SHL
	case token.SHR_ASSIGN:
		return token.SHR
	case token.AND_NOT_ASSIGN:
		return token.AND_NOT
	}
	return token.ILLEGAL
}
