package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
)

// basicTypes are the predeclared types whose constants the evaluator keeps.
var basicTypes = setOf("bool string int int8 int16 int32 int64 uint uint8 uint16 uint32 uint64 uintptr " +
	"float32 float64 complex64 complex128 byte rune")

// underlying follows type names declared in the file (through scopes) to
// the type literal they stand for; a predeclared or unknown name is
// returned as it is. It gives up after a few steps (cycles).
func (x *fileCtx) underlying(t ast.Expr, env *scope) (ast.Expr, *scope) {
	for i := 0; i < 16 && t != nil; i++ {
		switch tt := t.(type) {
		case *ast.ParenExpr:
			t = tt.X
		case *ast.Ident:
			u, s := env.lookupType(tt.Name)
			if u == nil {
				return t, env
			}
			t, env = u, s
		default:
			return t, env
		}
	}
	return t, env
}

// typed gives a constant the type it was declared with.
func (x *fileCtx) typed(v value, typ ast.Expr, env *scope) value {
	if typ == nil {
		return v
	}
	switch v := v.(type) {
	case *cval:
		if isInterface(typ) {
			return v // the dynamic type is the constant's default type
		}
		return &cval{v: v.v, typ: x.typeName(typ, env)}
	case *comp:
		if v.typ == nil {
			return &comp{lit: v.lit, typ: typ, env: v.env}
		}
	}
	return v
}

func isInterface(t ast.Expr) bool {
	if id, ok := t.(*ast.Ident); ok {
		return id.Name == "any"
	}
	_, ok := t.(*ast.InterfaceType)
	return ok
}

// typeName is the cval type name of a declared type: a predeclared name,
// or "named" for anything else.
func (x *fileCtx) typeName(typ ast.Expr, env *scope) string {
	if id, ok := typ.(*ast.Ident); ok && basicTypes[id.Name] {
		if t, _ := env.lookupType(id.Name); t == nil {
			return id.Name
		}
	}
	return "named"
}

// zero is the zero value of a type when it is a constant ("" for strings).
func (x *fileCtx) zero(typ ast.Expr, env *scope) value {
	u, _ := x.underlying(typ, env)
	id, ok := u.(*ast.Ident)
	if !ok || !basicTypes[id.Name] {
		return nil
	}
	name := x.typeName(typ, env)
	switch id.Name {
	case "string":
		return &cval{v: constant.MakeString(""), typ: name}
	case "bool":
		return &cval{v: constant.MakeBool(false), typ: name}
	}
	return &cval{v: constant.MakeInt64(0), typ: name}
}

// structFields lists the fields of the struct type of c in order, each with
// its type; embedded fields are named by their type name.
func (x *fileCtx) structFields(c *comp) ([]*ast.Ident, []ast.Expr, *scope) {
	u, env := x.underlying(c.typ, c.env)
	st, ok := u.(*ast.StructType)
	if !ok || st.Fields == nil {
		return nil, nil, nil
	}
	var names []*ast.Ident
	var types []ast.Expr
	for _, f := range st.Fields.List {
		if len(f.Names) == 0 {
			names = append(names, embeddedName(f.Type))
			types = append(types, f.Type)
		}
		for _, n := range f.Names {
			names = append(names, n)
			types = append(types, f.Type)
		}
	}
	return names, types, env
}

func embeddedName(t ast.Expr) *ast.Ident {
	switch t := t.(type) {
	case *ast.StarExpr:
		return embeddedName(t.X)
	case *ast.SelectorExpr:
		return t.Sel
	case *ast.Ident:
		return t
	}
	return &ast.Ident{}
}

// field evaluates the field name of the struct literal c, with the zero
// value for a field the literal leaves out.
func (x *fileCtx) field(c *comp, name string) value {
	names, types, tenv := x.structFields(c)
	idx := -1
	for i, n := range names {
		if n != nil && n.Name == name {
			idx = i
		}
	}
	if idx < 0 {
		return nil
	}
	elts := c.lit.Elts
	if len(elts) > 0 {
		if _, keyed := elts[0].(*ast.KeyValueExpr); keyed {
			for _, el := range elts {
				kv, ok := el.(*ast.KeyValueExpr)
				if k, isID := kv.Key.(*ast.Ident); ok && isID && k.Name == name {
					return x.typed(x.eval(kv.Value, c.env, types[idx]), types[idx], tenv)
				}
			}
			return x.zero(types[idx], tenv)
		}
	}
	if len(elts) == 0 {
		return x.zero(types[idx], tenv)
	}
	if len(elts) != len(names) {
		return nil
	}
	return x.typed(x.eval(elts[idx], c.env, types[idx]), types[idx], tenv)
}

// pair is one iteration of a range loop over known data.
type pair struct {
	k, v value
	line int // the line of the element's literal, 0 when none
}

// elems lists the key/value pairs that ranging over c yields, in source
// order (a map's run order is random but its set of names is not). ok is
// false when they cannot be known (keyed slice elements, an array whose
// length differs from its literal).
func (x *fileCtx) elems(c *comp) ([]pair, bool) {
	if m, ok := x.memo[c]; ok {
		return m.pairs, m.ok
	}
	out, ok := x.evalElems(c)
	x.memo[c] = memoElems{out, ok}
	return out, ok
}

// memoElems is a remembered result of elems: a table is indexed, measured
// and ranged over many times, and evaluating its rows each time would make
// `for i := 0; i < len(tests); i++ { tests[i] }` quadratic.
type memoElems struct {
	pairs []pair
	ok    bool
}

func (x *fileCtx) evalElems(c *comp) (out []pair, ok bool) {
	u, tenv := x.underlying(c.typ, c.env)
	switch t := u.(type) {
	case *ast.ArrayType:
		if t.Len != nil {
			if _, ell := t.Len.(*ast.Ellipsis); !ell {
				n, isC := x.eval(t.Len, tenv, nil).(*cval)
				if !isC || n.v.Kind() != constant.Int || constant.Compare(n.v, token.NEQ, constant.MakeInt64(int64(len(c.lit.Elts)))) {
					return nil, false
				}
			}
		}
		for i, el := range c.lit.Elts {
			if _, keyed := el.(*ast.KeyValueExpr); keyed {
				return nil, false
			}
			out = append(out, pair{k: &cval{v: constant.MakeInt64(int64(i)), typ: "int"},
				v: x.typed(x.eval(el, c.env, t.Elt), t.Elt, tenv), line: x.line(el.Pos())})
		}
		return out, true
	case *ast.MapType:
		for _, el := range c.lit.Elts {
			kv, isKV := el.(*ast.KeyValueExpr)
			if !isKV {
				return nil, false
			}
			k := x.typed(x.eval(kv.Key, c.env, t.Key), t.Key, tenv)
			out = append(out, pair{k: k, v: x.typed(x.eval(kv.Value, c.env, t.Value), t.Value, tenv), line: x.line(kv.Pos())})
		}
		return out, true
	}
	return nil, false
}

// index evaluates s[i] for a known slice, array or map literal and a
// constant index.
func (x *fileCtx) index(e *ast.IndexExpr, env *scope) value {
	c, _ := x.eval(e.X, env, nil).(*comp)
	k, _ := x.eval(e.Index, env, nil).(*cval)
	if c == nil || k == nil {
		return nil
	}
	ps, ok := x.elems(c)
	if !ok {
		return nil
	}
	for _, p := range ps {
		pk, _ := p.k.(*cval)
		if pk != nil && sameConst(pk.v, k.v) {
			return p.v
		}
	}
	return nil
}

func sameConst(a, b constant.Value) (eq bool) {
	defer func() {
		if recover() != nil {
			eq = false
		}
	}()
	return constant.Compare(a, token.EQL, b)
}

// slice evaluates s[lo:hi] for a constant string or a known slice or
// array literal of unkeyed elements, with constant bounds in range; the
// result of slicing a literal is a literal of its elements.
func (x *fileCtx) slice(e *ast.SliceExpr, env *scope) value {
	if e.Slice3 {
		return nil
	}
	v := x.eval(e.X, env, nil)
	n := -1
	switch v := v.(type) {
	case *cval:
		if v.v.Kind() == constant.String {
			n = len(constant.StringVal(v.v))
		}
	case *comp:
		if u, _ := x.underlying(v.typ, v.env); isSlice(u) {
			n = len(v.lit.Elts)
			for _, el := range v.lit.Elts {
				if _, keyed := el.(*ast.KeyValueExpr); keyed {
					return nil
				}
			}
		}
	}
	if n < 0 {
		return nil
	}
	lo, hi := x.bound(e.Low, 0, env), x.bound(e.High, n, env)
	if lo < 0 || hi < lo || hi > n {
		return nil
	}
	switch v := v.(type) {
	case *cval:
		return &cval{v: constant.MakeString(constant.StringVal(v.v)[lo:hi]), typ: v.typ}
	case *comp:
		u, _ := x.underlying(v.typ, v.env)
		typ := v.typ
		if at := u.(*ast.ArrayType); at.Len != nil {
			typ = &ast.ArrayType{Elt: at.Elt} // slicing an array gives a slice
		}
		lit := &ast.CompositeLit{Type: typ, Elts: v.lit.Elts[lo:hi], Lbrace: v.lit.Lbrace}
		return &comp{lit: lit, typ: typ, env: v.env}
	}
	return nil
}

// isSlice reports whether a type literal is a slice or array type.
func isSlice(t ast.Expr) bool {
	_, ok := t.(*ast.ArrayType)
	return ok
}

// bound is a slice bound: def when absent, -1 when not a constant int.
func (x *fileCtx) bound(e ast.Expr, def int, env *scope) int {
	if e == nil {
		return def
	}
	c, _ := x.eval(e, env, nil).(*cval)
	if c == nil || c.v.Kind() != constant.Int {
		return -1
	}
	i, ok := constant.Int64Val(c.v)
	if !ok || i < 0 || i > 1<<30 {
		return -1
	}
	return int(i)
}
