package golang

import (
	"go/ast"
	"go/constant"
	"go/token"
	"strconv"
)

// A value is what the evaluator knows about an expression: a *cval
// (constant), a *comp (composite literal), a *funcVal (a function literal
// or a declared function), or
// nil when nothing is known statically.
type value any

// cval is a constant with the name of its type: "" for an untyped constant
// (its default type applies), "rune" for an untyped rune, a predeclared type
// name, or "named" for a constant of a type declared in the code, whose
// formatting may call a String method and so is never evaluated.
type cval struct {
	v   constant.Value
	typ string
}

// comp is a composite literal together with its type (given, or implied by
// the enclosing literal) and the scope its expressions are evaluated in.
type comp struct {
	lit *ast.CompositeLit
	typ ast.Expr
	env *scope
	// args marks the slice a variadic parameter receives (fewArgs).
	args bool
}

// lazy is a package-level constant or variable, evaluated on first use
// because package-level declarations may refer to later ones.
type lazy struct {
	expr       ast.Expr
	typ        ast.Expr
	iota       int
	done, busy bool
	v          value
}

// scope is one lexical block of bindings. A boundary scope starts code that
// may run any number of times or not at all (a branch whose condition is
// unknown, a loop over unknown data, a closure): assigning from inside it
// to a variable declared outside makes that variable unknown.
type scope struct {
	parent   *scope
	vals     vars
	types    map[string]ast.Expr
	boundary bool
	pkg      bool
	// fr is set on the scope of a function body being walked: the test
	// whose *testing.T the body's code sees (closures defined in it
	// capture it).
	fr *frame
	// file is set on a package scope: the file whose declarations it
	// holds, where names not bound in any scope are looked up as
	// functions.
	file *srcFile
}

func newScope(parent *scope, boundary bool) *scope {
	return &scope{parent: parent, boundary: boundary}
}

func (s *scope) bind(name string, v value) {
	if name == "_" || name == "" {
		return
	}
	s.vals.set(name, v)
}

// vars are a scope's bindings: up to maxFew in a slice, searched in
// order, more in a map. Most scopes bind one or two names (a loop's
// variables, a closure's T), and an unrolled table makes such scopes
// once per row.
type vars struct {
	few []binding
	m   map[string]value
}

type binding struct {
	name string
	v    value
}

const maxFew = 8

func (b *vars) get(name string) (value, bool) {
	if b.m != nil {
		v, ok := b.m[name]
		return v, ok
	}
	for i := range b.few {
		if b.few[i].name == name {
			return b.few[i].v, true
		}
	}
	return nil, false
}

func (b *vars) set(name string, v value) {
	if b.m != nil {
		b.m[name] = v
		return
	}
	for i := range b.few {
		if b.few[i].name == name {
			b.few[i].v = v
			return
		}
	}
	if len(b.few) < maxFew {
		b.few = append(b.few, binding{name, v})
		return
	}
	b.m = make(map[string]value, 2*maxFew)
	for _, e := range b.few {
		b.m[e.name] = e.v
	}
	b.m[name] = v
	b.few = nil
}

// names lists the bound names.
func (b *vars) names() []string {
	if b.m == nil {
		out := make([]string, len(b.few))
		for i, e := range b.few {
			out[i] = e.name
		}
		return out
	}
	out := make([]string, 0, len(b.m))
	for n := range b.m {
		out = append(out, n)
	}
	return out
}

func (s *scope) bindType(name string, t ast.Expr) {
	if s.types == nil {
		s.types = map[string]ast.Expr{}
	}
	s.types[name] = t
}

// lookup finds name in s or its parents, and then in the package scopes
// of the package's other files that the extraction has (pkgCtx).
func (s *scope) lookup(name string) (value, *scope, bool) {
	for ; s != nil; s = s.parent {
		if v, ok := s.vals.get(name); ok {
			return v, s, true
		}
		if s.parent == nil && s.file != nil && s.file.others != nil {
			return s.file.others.lookupVal(name, s)
		}
	}
	return nil, nil, false
}

// srcFile is the file whose package scope ends the chain of s.
func (s *scope) srcFile() *srcFile {
	for ; s != nil; s = s.parent {
		if s.file != nil {
			return s.file
		}
	}
	return nil
}

// frame is the test the code of s belongs to: the fr of the nearest
// function body scope, nil outside any.
func (s *scope) frame() *frame {
	for ; s != nil; s = s.parent {
		if s.fr != nil {
			return s.fr
		}
	}
	return nil
}

// lookupType finds a type declared as name in s or its parents.
func (s *scope) lookupType(name string) (ast.Expr, *scope) {
	for ; s != nil; s = s.parent {
		if t, ok := s.types[name]; ok {
			return t, s
		}
		if s.parent == nil && s.file != nil && s.file.others != nil {
			return s.file.others.lookupType(name, s)
		}
	}
	return nil, nil
}

// assign gives an existing variable a new value. The value becomes unknown
// when the assignment may run any number of times (a boundary lies between)
// or targets a package-level variable, which is then shadowed by unknown in
// the function's outermost scope so other tests keep the declared value.
func (s *scope) assign(name string, v value) {
	crossed := false
	var top *scope
	for c := s; c != nil; c = c.parent {
		if c.pkg {
			if top != nil {
				top.bind(name, nil)
			}
			return
		}
		if _, ok := c.vals.get(name); ok {
			if crossed {
				v = nil
			}
			c.vals.set(name, v)
			return
		}
		crossed = crossed || c.boundary
		top = c
	}
}

// packageScope binds the file's package-level constants, variables and
// types, lazily evaluated.
func packageScope(file *ast.File) *scope {
	s := &scope{pkg: true}
	for _, d := range file.Decls {
		if g, ok := d.(*ast.GenDecl); ok {
			declare(s, g, true)
		}
	}
	return s
}

// declare binds the names of one const, var or type declaration in s, as
// lazy values when pkg is set (evaluated on first use).
func declare(s *scope, g *ast.GenDecl, pkg bool) {
	var lastType ast.Expr
	var lastValues []ast.Expr
	for i, spec := range g.Specs {
		switch sp := spec.(type) {
		case *ast.TypeSpec:
			if sp.TypeParams == nil && sp.Name != nil {
				s.bindType(sp.Name.Name, sp.Type)
			}
		case *ast.ValueSpec:
			typ, values := sp.Type, sp.Values
			if g.Tok == token.CONST && typ == nil && len(values) == 0 {
				typ, values = lastType, lastValues // implicit repetition
			}
			lastType, lastValues = typ, values
			for j, n := range sp.Names {
				var e ast.Expr
				if len(values) == len(sp.Names) {
					e = values[j]
				}
				if g.Tok == token.VAR && pkg && e == nil {
					s.bind(n.Name, nil) // may be set by init
					continue
				}
				s.bind(n.Name, &lazy{expr: e, typ: typ, iota: i})
			}
		}
	}
}

// resolve turns a lazy binding into its value, evaluating it once; a cycle
// gives nil.
func (x *fileCtx) resolve(v value, env *scope) value {
	l, ok := v.(*lazy)
	if !ok {
		return v
	}
	if l.done {
		return l.v
	}
	if l.busy {
		return nil
	}
	l.busy = true
	inner := newScope(env, false)
	inner.bind("iota", &cval{v: constant.MakeInt64(int64(l.iota))})
	if l.expr == nil {
		l.v = x.zero(l.typ, env)
	} else {
		l.v = x.typed(x.eval(l.expr, inner, l.typ), l.typ, env)
	}
	l.done, l.busy = true, false
	return l.v
}

// declareLocal evaluates a declaration inside a function body eagerly.
func (x *fileCtx) declareLocal(s *scope, g *ast.GenDecl) {
	declare(s, g, false)
	for _, name := range s.vals.names() {
		if v, _ := s.vals.get(name); v != nil {
			if l, ok := v.(*lazy); ok {
				s.vals.set(name, x.resolve(l, s))
			}
		}
	}
}

// importNames maps each import's local name to its path.
func importNames(file *ast.File) map[string]string {
	m := map[string]string{}
	for _, im := range file.Imports {
		p, err := strconv.Unquote(im.Path.Value)
		if err != nil {
			continue
		}
		name := p
		if i := lastSlash(p); i >= 0 {
			name = p[i+1:]
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		m[name] = p
	}
	return m
}

func lastSlash(s string) int {
	for i := len(s) - 1; i >= 0; i-- {
		if s[i] == '/' {
			return i
		}
	}
	return -1
}
