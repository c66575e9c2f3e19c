package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// metaFact is what a metaclass's __init__ adds to every class it makes,
// when the names are fixed by its source: the test methods it sets on the
// class (Adds) and the class names its guard returns early for (Skip), as
// CPython's test_argparse builds its parser tests:
//
//	class ParserTesterMetaclass(type):
//	    def __init__(cls, name, bases, bodydict):
//	        if name == 'ParserTestCase':
//	            return
//	        class AddTests(object):
//	            def __init__(self, tester_cls, add_arguments, parse_args):
//	                for test_func in [self.test_failures, self.test_successes]:
//	                    names = test_func.__name__, add_arguments.__name__, ...
//	                    setattr(tester_cls, '_'.join(names), wrapper)
//	            ...
//	        for add_arguments in [no_groups, one_group, many_groups]:
//	            for parse_args in [listargs, sysargs]:
//	                AddTests(cls, add_arguments, parse_args)
type metaFact struct {
	Adds []string `json:"a"`
	Skip []string `json:"s,omitempty"`
}

// metaValue is a value the metaclass evaluator knows: a string, a
// function or bound method (known by its __name__), a sequence, an
// object of a class local to the __init__, the class being made, or
// nothing known (kind 0).
type metaValue struct {
	kind  byte // 's' string, 'f' function, 'q' sequence, 'o' object, 'c' local class, 'k' the class made
	str   string
	seq   []metaValue
	obj   *metaObject
	class *sitter.Node
}

type metaObject struct {
	class *sitter.Node
	attrs map[string]metaValue
}

// metaEval runs a metaclass's __init__ over the few statements whose
// effect on the class's test names is certain; anything else stops it.
type metaEval struct {
	s     *dynScan
	name  string // the __init__'s name parameter
	fact  metaFact
	steps int
	ok    bool
	// nested counts the loops and try blocks around the statement run: a
	// return there would end the function midway, which the evaluator
	// does not follow.
	nested int
}

// metaclassFact evaluates a module-level metaclass (a class deriving from
// type alone, defining __init__ and no __new__, __call__ or
// __prepare__); nil when its effect cannot be known.
func (s *dynScan) metaclassFact(d *sitter.Node) *metaFact {
	sup := d.ChildByFieldName("superclasses")
	if sup == nil || sup.NamedChildCount() != 1 || s.w.text(sup.NamedChild(0)) != "type" {
		return nil
	}
	var init *sitter.Node
	for _, st := range children(d.ChildByFieldName("body")) {
		f := definition(st)
		if f.Type() != "function_definition" {
			continue
		}
		switch s.w.text(f.ChildByFieldName("name")) {
		case "__init__":
			if st.Type() == "decorated_definition" {
				return nil
			}
			init = f
		case "__new__", "__call__", "__prepare__", "__init_subclass__":
			return nil
		}
	}
	if init == nil {
		return nil
	}
	ps := s.params(init)
	if len(ps) != 4 {
		return nil
	}
	e := &metaEval{s: s, name: ps[1], ok: true}
	env := map[string]metaValue{ps[0]: {kind: 'k'}}
	e.block(init.ChildByFieldName("body"), env, nil, true)
	if !e.ok || len(e.fact.Adds) == 0 {
		return nil
	}
	return &e.fact
}

func (e *metaEval) fail() bool { e.ok = false; return false }

// block runs statements; top is the metaclass's own __init__ body, where
// the name guard may stand. A bare return at a function's own level ends
// the block (true); it reports false when the evaluation failed.
func (e *metaEval) block(n *sitter.Node, env map[string]metaValue, self *metaObject, top bool) bool {
	if n == nil {
		return e.fail()
	}
	for i, st := range children(n) {
		if e.steps++; !e.ok || e.steps > 20000 || len(e.fact.Adds) > 5000 {
			return e.fail()
		}
		switch st.Type() {
		case "pass_statement":
		case "return_statement":
			return (st.NamedChildCount() == 0 && e.nested == 0) || e.fail()
		case "expression_statement":
			if i == 0 && st.NamedChildCount() == 1 && st.NamedChild(0).Type() == "string" {
				continue // a docstring
			}
			e.expressionStatement(st, env, self)
		case "function_definition":
			env[e.s.w.text(st.ChildByFieldName("name"))] = metaValue{kind: 'f', str: e.s.w.text(st.ChildByFieldName("name"))}
		case "class_definition":
			env[e.s.w.text(st.ChildByFieldName("name"))] = metaValue{kind: 'c', class: st}
		case "if_statement":
			if !e.ifStatement(st, env, top) {
				return false
			}
		case "for_statement":
			e.forStatement(st, env, self)
		case "try_statement":
			e.tryStatement(st, env, self)
		default:
			return e.fail()
		}
	}
	return e.ok
}

// ifStatement takes the guard `if name == 'Base': return` (its name is
// one the metaclass adds nothing to) and an if of any condition whose
// branches only set attributes of the class that are not test-like.
func (e *metaEval) ifStatement(st *sitter.Node, env map[string]metaValue, top bool) bool {
	cond, body := st.ChildByFieldName("condition"), st.ChildByFieldName("consequence")
	if top && len(e.fact.Adds) == 0 && cond != nil && body != nil && st.ChildByFieldName("alternative") == nil {
		if guard, ok := e.guard(cond); ok && body.NamedChildCount() == 1 && body.NamedChild(0).Type() == "return_statement" &&
			body.NamedChild(0).NamedChildCount() == 0 {
			e.fact.Skip = append(e.fact.Skip, guard)
			return true
		}
	}
	for _, c := range children(st) {
		if c == cond {
			continue
		}
		switch c.Type() {
		case "elif_clause":
			c = c.ChildByFieldName("consequence")
		case "else_clause":
			c = c.ChildByFieldName("body")
		}
		if c == nil || c.Type() != "block" {
			return e.fail()
		}
		for _, s := range children(c) {
			if !e.harmless(s, env) {
				return e.fail()
			}
		}
	}
	return true
}

// guard reads name == 'Literal'.
func (e *metaEval) guard(cond *sitter.Node) (string, bool) {
	cond = unparen(cond)
	if cond.Type() != "comparison_operator" || cond.NamedChildCount() != 2 || !strings.Contains(e.s.w.text(cond), "==") {
		return "", false
	}
	a, b := cond.NamedChild(0), cond.NamedChild(1)
	if a.Type() == "string" {
		a, b = b, a
	}
	if a.Type() != "identifier" || e.s.w.text(a) != e.name || b.Type() != "string" {
		return "", false
	}
	v, _, ok := decodeString(e.s.w.text(b))
	return v, ok
}

// harmless reports a statement that sets an attribute of the class that
// is not test-like: cls.parser_class = X.
func (e *metaEval) harmless(st *sitter.Node, env map[string]metaValue) bool {
	if st.Type() != "expression_statement" || st.NamedChildCount() != 1 || st.NamedChild(0).Type() != "assignment" {
		return false
	}
	left := st.NamedChild(0).ChildByFieldName("left")
	if left == nil || left.Type() != "attribute" {
		return false
	}
	obj := e.value(left.ChildByFieldName("object"), env, nil)
	return obj.kind == 'k' && !strings.HasPrefix(e.s.w.text(left.ChildByFieldName("attribute")), "test")
}

func (e *metaEval) forStatement(st *sitter.Node, env map[string]metaValue, self *metaObject) {
	left, right, body := st.ChildByFieldName("left"), st.ChildByFieldName("right"), st.ChildByFieldName("body")
	if st.ChildByFieldName("alternative") != nil || left == nil || right == nil || strings.Contains(e.s.w.text(body), "break") ||
		strings.Contains(e.s.w.text(body), "continue") {
		e.fail()
		return
	}
	seq := e.value(right, env, self)
	if seq.kind != 'q' {
		e.fail()
		return
	}
	e.nested++
	defer func() { e.nested-- }()
	for _, item := range seq.seq {
		if !e.bind(left, item, env) || !e.block(body, env, self, false) {
			e.fail()
			return
		}
	}
}

// tryStatement runs the try body when every handler only passes and the
// body itself adds no test (no setattr): a raise midway (the except
// TypeError around wrapper.__name__ = name) skips only statements that
// add none.
func (e *metaEval) tryStatement(st *sitter.Node, env map[string]metaValue, self *metaObject) {
	var body *sitter.Node
	for _, c := range children(st) {
		switch c.Type() {
		case "block":
			body = c
		case "except_clause":
			b := children(c)
			last := b[len(b)-1]
			if last.Type() != "block" || last.NamedChildCount() != 1 || last.NamedChild(0).Type() != "pass_statement" {
				e.fail()
				return
			}
		default:
			e.fail()
			return
		}
	}
	for _, c := range children(body) {
		if strings.Contains(e.s.w.text(c), "setattr") {
			e.fail() // a test added where an exception may skip it
			return
		}
	}
	e.nested++
	defer func() { e.nested-- }()
	e.block(body, env, self, false)
}

// bind assigns a value to a name or a tuple of names.
func (e *metaEval) bind(target *sitter.Node, v metaValue, env map[string]metaValue) bool {
	target = unparen(target)
	switch target.Type() {
	case "identifier":
		env[e.s.w.text(target)] = v
		return true
	case "pattern_list", "tuple_pattern", "tuple", "list_pattern", "expression_list":
		ts := children(target)
		if v.kind != 'q' || len(v.seq) != len(ts) {
			return false
		}
		for i, t := range ts {
			if !e.bind(t, v.seq[i], env) {
				return false
			}
		}
		return true
	}
	return false
}

// expressionStatement runs an assignment, setattr on the class made, or
// the making of an object of a local class.
func (e *metaEval) expressionStatement(st *sitter.Node, env map[string]metaValue, self *metaObject) {
	if st.NamedChildCount() != 1 {
		e.fail()
		return
	}
	x := st.NamedChild(0)
	switch x.Type() {
	case "assignment":
		e.assign(x, env, self)
	case "call":
		fn, args := x.ChildByFieldName("function"), children(x.ChildByFieldName("arguments"))
		if fn.Type() == "identifier" && e.s.w.text(fn) == "setattr" && len(args) == 3 {
			target, name := e.value(args[0], env, self), e.value(args[1], env, self)
			if target.kind != 'k' || name.kind != 's' {
				e.fail()
				return
			}
			e.fact.Adds = appendUnique(e.fact.Adds, name.str)
			return
		}
		if c := e.value(fn, env, self); c.kind == 'c' {
			e.instantiate(c.class, args, env, self)
			return
		}
		e.fail()
	default:
		e.fail()
	}
}

func (e *metaEval) assign(a *sitter.Node, env map[string]metaValue, self *metaObject) {
	left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
	if left == nil || right == nil || right.Type() == "assignment" {
		e.fail()
		return
	}
	v := e.value(right, env, self)
	if left.Type() != "attribute" {
		if !e.bind(left, v, env) && !e.bind(left, unknownLike(left, e), env) {
			e.fail()
		}
		return
	}
	objNode, attr := left.ChildByFieldName("object"), e.s.w.text(left.ChildByFieldName("attribute"))
	switch obj := e.value(objNode, env, self); obj.kind {
	case 'k':
		if strings.HasPrefix(attr, "test") {
			e.fail()
		}
	case 'o':
		obj.obj.attrs[attr] = v
	case 'f':
		// wrapper.__name__ = name renames the function value.
		if attr == "__name__" && objNode.Type() == "identifier" && v.kind == 's' {
			env[e.s.w.text(objNode)] = metaValue{kind: 'f', str: v.str}
		}
	default:
		e.fail()
	}
}

// unknownLike is a target's shape filled with unknown values.
func unknownLike(target *sitter.Node, e *metaEval) metaValue {
	target = unparen(target)
	if target.Type() == "identifier" {
		return metaValue{}
	}
	v := metaValue{kind: 'q'}
	for range children(target) {
		v.seq = append(v.seq, metaValue{})
	}
	return v
}

// instantiate runs a local class's __init__ (the class derives from
// object alone) on a new object, with the enclosing names visible.
func (e *metaEval) instantiate(class *sitter.Node, args []*sitter.Node, env map[string]metaValue, self *metaObject) {
	if sup := class.ChildByFieldName("superclasses"); sup != nil && sup.NamedChildCount() > 0 &&
		(sup.NamedChildCount() != 1 || e.s.w.text(sup.NamedChild(0)) != "object") {
		e.fail()
		return
	}
	var init *sitter.Node
	for _, st := range children(class.ChildByFieldName("body")) {
		if st.Type() == "function_definition" && e.s.w.text(st.ChildByFieldName("name")) == "__init__" {
			init = st
		}
	}
	if init == nil {
		e.fail()
		return
	}
	ps := e.s.params(init)
	if len(ps) != len(args)+1 {
		e.fail()
		return
	}
	inner := make(map[string]metaValue, len(env)+len(ps))
	for k, v := range env {
		inner[k] = v
	}
	obj := &metaObject{class: class, attrs: map[string]metaValue{}}
	inner[ps[0]] = metaValue{kind: 'o', obj: obj}
	for i, a := range args {
		if a.Type() == "keyword_argument" || ps[i+1] == "?" || strings.HasPrefix(ps[i+1], "*") {
			e.fail()
			return
		}
		inner[ps[i+1]] = e.value(a, env, self)
	}
	saved := e.nested
	e.nested = 0 // the __init__'s own body: a return there ends it
	e.block(init.ChildByFieldName("body"), inner, obj, false)
	e.nested = saved
}

// value evaluates an expression; the zero value is unknown.
func (e *metaEval) value(n *sitter.Node, env map[string]metaValue, self *metaObject) metaValue {
	if n == nil {
		return metaValue{}
	}
	n = unparen(n)
	switch n.Type() {
	case "string":
		if v, isBytes, ok := decodeString(e.s.w.text(n)); ok && !isBytes {
			return metaValue{kind: 's', str: v}
		}
	case "identifier":
		return env[e.s.w.text(n)]
	case "attribute":
		obj, attr := e.value(n.ChildByFieldName("object"), env, self), e.s.w.text(n.ChildByFieldName("attribute"))
		switch {
		case attr == "__name__" && obj.kind == 'f':
			return metaValue{kind: 's', str: obj.str}
		case obj.kind == 'o':
			if v, ok := obj.obj.attrs[attr]; ok {
				return v
			}
			for _, st := range children(obj.obj.class.ChildByFieldName("body")) {
				if st.Type() == "function_definition" && e.s.w.text(st.ChildByFieldName("name")) == attr {
					return metaValue{kind: 'f', str: attr} // a bound method's __name__
				}
			}
		}
	case "tuple", "list", "expression_list":
		v := metaValue{kind: 'q'}
		for _, c := range children(n) {
			if c.Type() == "list_splat" {
				return metaValue{}
			}
			v.seq = append(v.seq, e.value(c, env, self))
		}
		return v
	case "binary_operator":
		l, r := e.value(n.ChildByFieldName("left"), env, self), e.value(n.ChildByFieldName("right"), env, self)
		switch op := n.ChildByFieldName("operator"); {
		case op == nil || l.kind != 's':
		case op.Type() == "+" && r.kind == 's':
			return metaValue{kind: 's', str: l.str + r.str}
		case op.Type() == "%":
			if r.kind != 'q' {
				r = metaValue{kind: 'q', seq: []metaValue{r}}
			}
			if s, ok := percentS(l.str, r.seq); ok {
				return metaValue{kind: 's', str: s}
			}
		}
	case "call":
		return e.call(n, env, self)
	}
	return metaValue{}
}

// call evaluates sep.join(strings).
func (e *metaEval) call(n *sitter.Node, env map[string]metaValue, self *metaObject) metaValue {
	fn, args := n.ChildByFieldName("function"), children(n.ChildByFieldName("arguments"))
	if fn.Type() != "attribute" || e.s.w.text(fn.ChildByFieldName("attribute")) != "join" || len(args) != 1 {
		return metaValue{}
	}
	sep, seq := e.value(fn.ChildByFieldName("object"), env, self), e.value(args[0], env, self)
	if sep.kind != 's' || seq.kind != 'q' {
		return metaValue{}
	}
	parts := make([]string, len(seq.seq))
	for i, p := range seq.seq {
		if p.kind != 's' {
			return metaValue{}
		}
		parts[i] = p.str
	}
	return metaValue{kind: 's', str: strings.Join(parts, sep.str)}
}

// percentS formats with %s and %% only, as Python's str % tuple does.
func percentS(format string, args []metaValue) (string, bool) {
	var b strings.Builder
	used := 0
	for i := 0; i < len(format); i++ {
		if format[i] != '%' {
			b.WriteByte(format[i])
			continue
		}
		if i+1 >= len(format) {
			return "", false
		}
		i++
		switch format[i] {
		case '%':
			b.WriteByte('%')
		case 's':
			if used >= len(args) || args[used].kind != 's' {
				return "", false
			}
			b.WriteString(args[used].str)
			used++
		default:
			return "", false
		}
	}
	return b.String(), used == len(args)
}

// metaclasses evaluates the module's metaclasses (metaclassFact) before
// the scan, so that the classes they make can carry what they add.
func (s *dynScan) metaclasses(roots []*sitter.Node) {
	for _, r := range roots {
		for _, c := range children(r) {
			if d := definition(c); d.Type() == "class_definition" && c.Type() == "class_definition" {
				if f := s.metaclassFact(d); f != nil {
					s.metas[s.w.text(d.ChildByFieldName("name"))] = f
				}
			}
		}
	}
}

// metaAssign reads `X = M('X', bases, {})` at module level, M one of the
// module's evaluated metaclasses: the class it makes is listed as a class
// of the module whose subclasses M also makes, with what M adds. It
// reports whether it took the statement.
func (s *dynScan) metaAssign(a, left, right *sitter.Node, open map[string]bool) bool {
	right = unparen(right)
	if left.Type() != "identifier" || right.Type() != "call" || len(open) > 0 {
		return false
	}
	fn, args := right.ChildByFieldName("function"), children(right.ChildByFieldName("arguments"))
	meta := s.metas[s.w.text(fn)]
	if meta == nil || fn.Type() != "identifier" || len(args) != 3 || args[0].Type() != "string" ||
		args[2].Type() != "dictionary" || args[2].NamedChildCount() != 0 {
		return false
	}
	name, _, ok := decodeString(s.w.text(args[0]))
	if !ok || name != s.w.text(left) {
		return false
	}
	bases, isOpen := s.baseNames(args[1:2], open, nil)
	if isOpen {
		return false
	}
	s.w.facts.Classes = append(s.w.facts.Classes, classFact{Name: name, Line: line(a), Outer: -1, Bases: bases, Meta: meta})
	s.classes[name] = true
	return true
}

// metaKeyword gives a module-level class statement's metaclass=M, M one
// of the module's evaluated metaclasses, to the class's facts; it reports
// whether it did.
func (s *dynScan) metaKeyword(d *sitter.Node, name, meta string) bool {
	f := s.metas[meta]
	if f == nil {
		return false
	}
	for i := len(s.w.facts.Classes) - 1; i >= 0; i-- {
		if c := &s.w.facts.Classes[i]; c.Outer == -1 && c.Name == name && c.Line == line(d) {
			c.Meta = f
			return true
		}
	}
	return false
}
