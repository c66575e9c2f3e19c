package js

import sitter "github.com/smacker/go-tree-sitter"

// env is the chain of bindings a loop iteration or an inlined helper call
// gives the calls inside it: a loop variable's element, a callback's or a
// helper's parameters. The walker's const lookup only sees declarations;
// env carries the values that exist only while the code runs, one chain
// per expanded instance. nil is the empty chain.
type env struct {
	name  string
	val   value
	scope uint32 // first byte of the loop or function that binds it
	next  *env
}

// lookup returns the innermost binding of name, nil when none.
func (e *env) lookup(name string) *env {
	for ; e != nil; e = e.next {
		if e.name == name {
			return e
		}
	}
	return nil
}

// before drops the bindings made by loops and functions that start
// after pos: a declaration there cannot see them.
func (e *env) before(pos uint32) *env {
	for e != nil && e.scope > pos {
		e = e.next
	}
	return e
}

func (e *env) bind(name string, v value, scope uint32) *env {
	return &env{name: name, val: v, scope: scope, next: e}
}

// bindPattern binds the names of a declaration target (an identifier or
// an object or array destructuring pattern, with defaults) to the parts
// of v. ok is false for a target it cannot read (a member expression).
func (w *evaluator) bindPattern(p *sitter.Node, v value, scope uint32, e *env) (*env, bool) {
	if p == nil {
		return e, false
	}
	switch p.Type() {
	case "identifier", "shorthand_property_identifier_pattern":
		return e.bind(w.text(p), v, scope), true
	case "required_parameter", "optional_parameter": // TypeScript
		pat, def := p.ChildByFieldName("pattern"), p.ChildByFieldName("value")
		if v.kind == kUndefined && def != nil {
			v = w.evalIn(def, e)
		}
		return w.bindPattern(pat, v, scope, e)
	case "assignment_pattern", "object_assignment_pattern":
		left, right := p.ChildByFieldName("left"), p.ChildByFieldName("right")
		if v.kind == kUndefined {
			v = w.evalIn(right, e)
		}
		return w.bindPattern(left, v, scope, e)
	case "array_pattern":
		i := 0
		for k := 0; k < int(p.NamedChildCount()); k++ {
			c := p.NamedChild(k)
			switch c.Type() {
			case "comment":
				continue
			case "rest_pattern":
				if v.kind != kArray {
					return e, false
				}
				rest := value{kind: kArray}
				if i < len(v.arr) {
					rest.arr = v.arr[i:]
				}
				return w.bindPattern(c.NamedChild(0), rest, scope, e)
			}
			var ok bool
			if e, ok = w.bindPattern(c, elementOf(v, i), scope, e); !ok {
				return e, false
			}
			i++
		}
		return e, true
	case "object_pattern":
		for k := 0; k < int(p.NamedChildCount()); k++ {
			c := p.NamedChild(k)
			var ok bool
			switch c.Type() {
			case "comment":
				continue
			case "shorthand_property_identifier_pattern":
				e, ok = w.bindPattern(c, member(v, w.text(c)), scope, e)
			case "object_assignment_pattern":
				key := c.ChildByFieldName("left")
				if key == nil {
					return e, false
				}
				e, ok = w.bindPattern(c, member(v, w.text(key)), scope, e)
			case "pair_pattern":
				key, ok2 := w.propertyKey(c.ChildByFieldName("key"))
				if !ok2 {
					return e, false
				}
				e, ok = w.bindPattern(c.ChildByFieldName("value"), member(v, key), scope, e)
			default: // ...rest
				return e, false
			}
			if !ok {
				return e, false
			}
		}
		return e, true
	}
	return e, false
}

// elementOf is the i-th element an array pattern takes from v; a value
// that is not a known array gives unknown parts.
func elementOf(v value, i int) value {
	if v.kind != kArray {
		return value{}
	}
	if i < len(v.arr) {
		return v.arr[i]
	}
	return value{kind: kUndefined}
}

// evalIn evaluates n with the bindings of e in scope.
func (w *evaluator) evalIn(n *sitter.Node, e *env) value {
	saved := w.env
	w.env = e
	defer func() { w.env = saved }()
	return w.eval(n, 0)
}
