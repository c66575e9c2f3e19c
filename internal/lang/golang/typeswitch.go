package golang

import (
	"go/ast"
	"go/constant"
)

// typeSwitch walks only the clause of a type switch that a value of known
// type selects (a composite literal's, a constant's predeclared type),
// with the clause's variable bound to it. ok is false when the value's
// type or a case before the selected one cannot be compared: then every
// clause is walked as uncertain (clauses).
func (x *fileCtx) typeSwitch(s *ast.TypeSwitchStmt, env *scope, fr *frame) (flow, bool) {
	var sym string
	var ta *ast.TypeAssertExpr
	switch a := s.Assign.(type) {
	case *ast.AssignStmt:
		if len(a.Lhs) == 1 && len(a.Rhs) == 1 {
			id, _ := a.Lhs[0].(*ast.Ident)
			ta, _ = a.Rhs[0].(*ast.TypeAssertExpr)
			if id != nil {
				sym = id.Name
			}
		}
	case *ast.ExprStmt:
		ta, _ = a.X.(*ast.TypeAssertExpr)
	}
	if ta == nil || s.Body == nil {
		return flowNormal, false
	}
	inner := newScope(env, false)
	if s.Init != nil {
		x.walkStmt(s.Init, inner, fr)
	}
	v := x.eval(ta.X, inner, nil)
	vt := valueType(v)
	if vt == nil {
		return flowNormal, false
	}
	var chosen *ast.CaseClause
	for _, st := range s.Body.List {
		cc, ok := st.(*ast.CaseClause)
		if !ok {
			return flowNormal, false
		}
		if cc.List == nil {
			if chosen == nil {
				chosen = cc // default, unless a case matches
			}
			continue
		}
		for _, t := range cc.List {
			switch x.typeMatch(t, vt, inner) {
			case matchUnknown:
				return flowNormal, false
			case matchYes:
				return x.walkClause(cc, sym, v, inner, fr), true
			}
		}
	}
	if chosen == nil {
		return flowNormal, true
	}
	return x.walkClause(chosen, sym, v, inner, fr), true
}

func (x *fileCtx) walkClause(cc *ast.CaseClause, sym string, v value, env *scope, fr *frame) flow {
	body := newScope(env, false)
	if sym != "" {
		body.bind(sym, v)
	}
	f := x.walkStmts(cc.Body, body, fr)
	if f == flowBreak {
		return flowNormal
	}
	return f
}

// valueType is the dynamic type of a value, as written: a composite
// literal's type, the predeclared type of a constant; nil when unknown.
func valueType(v value) ast.Expr {
	switch v := v.(type) {
	case *comp:
		return v.typ
	case *cval:
		switch v.typ {
		case "named":
			return nil
		case "":
			return &ast.Ident{Name: defaultType(v)}
		case "rune":
			return &ast.Ident{Name: "int32"}
		}
		return &ast.Ident{Name: v.typ}
	}
	return nil
}

// The answers of typeMatch.
const (
	matchNo = iota
	matchYes
	matchUnknown
)

// typeMatch compares a case's type with a value's type, both as written:
// identical type names or literals match; an interface type (other than
// any, which every value matches) may match without being identical, so
// it is unknown.
func (x *fileCtx) typeMatch(c, v ast.Expr, env *scope) int {
	if sameType(c, v) {
		return matchYes
	}
	switch c := c.(type) {
	case *ast.Ident:
		switch {
		case c.Name == "any":
			return matchYes
		case c.Name == "nil":
			return matchNo
		}
		t, _ := env.lookupType(c.Name)
		if t == nil {
			if basicTypes[c.Name] {
				return matchNo
			}
			return matchUnknown // error, or a type of the package's other files
		}
		if u, _ := x.underlying(c, env); u != nil {
			if _, iface := u.(*ast.InterfaceType); iface {
				return matchUnknown
			}
		}
		return matchNo
	case *ast.InterfaceType, *ast.SelectorExpr, *ast.ParenExpr:
		return matchUnknown // another package's type may be an interface
	}
	return matchNo
}

// defaultType is the type an untyped constant takes in an interface.
func defaultType(c *cval) string {
	switch c.v.Kind() {
	case constant.Bool:
		return "bool"
	case constant.String:
		return "string"
	case constant.Float:
		return "float64"
	case constant.Complex:
		return "complex128"
	}
	return "int"
}

// sameType reports whether two type expressions are written the same
// (names, pointers, slices, maps).
func sameType(a, b ast.Expr) bool {
	switch a := a.(type) {
	case *ast.Ident:
		b, ok := b.(*ast.Ident)
		return ok && a.Name == b.Name
	case *ast.StarExpr:
		b, ok := b.(*ast.StarExpr)
		return ok && sameType(a.X, b.X)
	case *ast.ArrayType:
		b, ok := b.(*ast.ArrayType)
		return ok && a.Len == nil && b.Len == nil && sameType(a.Elt, b.Elt)
	case *ast.MapType:
		b, ok := b.(*ast.MapType)
		return ok && sameType(a.Key, b.Key) && sameType(a.Value, b.Value)
	case *ast.ParenExpr:
		return sameType(a.X, b)
	}
	return false
}
