package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// What a helper's def is (funcs.go): a generator, memoized or wrapped
// by a collector, and whether running it on copies is safe.

// hasYield reports a generator's body: a yield outside nested defs and
// lambdas.
func hasYield(n *sitter.Node) bool {
	if n == nil {
		return false
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "yield":
			return true
		case "function_definition", "lambda", "class_definition", "decorated_definition":
			continue
		}
		if hasYield(c) {
			return true
		}
	}
	return false
}

// helperWrap reads a module-level def's decorators: ok when each only
// memoizes (functools.cache, functools.lru_cache) or is a collector of
// the module (collector), whose kind the call's result becomes.
func (w *evaluator) helperWrap(n *sitter.Node) (wrap seqKind, ok bool) {
	for _, d := range decorators(n) {
		if d.Type() == "call" {
			d = d.ChildByFieldName("function")
		}
		switch w.resolve(w.text(d)) {
		case "functools.cache", "functools.lru_cache":
			continue
		}
		k, ok := w.collector(d)
		if !ok || wrap != seqOther {
			return seqOther, false
		}
		wrap = k
	}
	return wrap, true
}

// collector reports a decorator of the module that makes a function's
// result a list or a tuple, as dateutil's as_list does:
//
//	def as_list(f):
//	    @functools.wraps(f)
//	    def inner(*args, **kwargs):
//	        return list(f(*args, **kwargs))
//	    return inner
func (w *evaluator) collector(d *sitter.Node) (seqKind, bool) {
	if d.Type() != "identifier" || w.bindings[w.text(d)] != 1 || w.funcs[w.text(d)] == nil ||
		w.funcs[w.text(d)].Type() != "function_definition" {
		return seqOther, false
	}
	def := w.funcs[w.text(d)]
	params := children(def.ChildByFieldName("parameters"))
	if len(params) != 1 || params[0].Type() != "identifier" {
		return seqOther, false
	}
	f := w.text(params[0])
	body := statementsOf(def.ChildByFieldName("body"))
	if len(body) != 2 || body[1].Type() != "return_statement" || body[1].NamedChildCount() != 1 {
		return seqOther, false
	}
	inner := definition(body[0])
	if inner == nil || inner.Type() != "function_definition" || w.text(body[1].NamedChild(0)) != w.text(inner.ChildByFieldName("name")) {
		return seqOther, false
	}
	for _, dd := range decorators(body[0]) {
		if dd.Type() != "call" || w.resolve(w.text(dd.ChildByFieldName("function"))) != "functools.wraps" ||
			w.text(dd.ChildByFieldName("arguments")) != "("+f+")" {
			return seqOther, false
		}
	}
	ps := children(inner.ChildByFieldName("parameters"))
	ib := statementsOf(inner.ChildByFieldName("body"))
	if len(ps) != 2 || ps[0].Type() != "list_splat_pattern" || ps[1].Type() != "dictionary_splat_pattern" ||
		len(ib) != 1 || ib[0].Type() != "return_statement" || ib[0].NamedChildCount() != 1 {
		return seqOther, false
	}
	call := unparen(ib[0].NamedChild(0))
	if call.Type() != "call" {
		return seqOther, false
	}
	kind := map[string]seqKind{"list": seqList, "tuple": seqTuple}[w.text(call.ChildByFieldName("function"))]
	want := "(" + f + "(" + w.text(ps[0]) + ", " + w.text(ps[1]) + "))"
	if kind == seqOther || w.bindings[w.text(call.ChildByFieldName("function"))] != 0 ||
		strings.Join(strings.Fields(w.text(call.ChildByFieldName("arguments"))), " ") != want {
		return seqOther, false
	}
	return kind, true
}

// statementsOf is a block's statements, without comments and a leading
// docstring.
func statementsOf(block *sitter.Node) []*sitter.Node {
	var out []*sitter.Node
	for _, s := range children(block) {
		if s.Type() == "comment" {
			continue
		}
		if len(out) == 0 && s.Type() == "expression_statement" && s.NamedChildCount() == 1 && s.NamedChild(0).Type() == "string" {
			continue
		}
		out = append(out, s)
	}
	return out
}

// fresh reports an element that is a list or tuple the frame made
// itself (a display, a comprehension, a concatenation, list(...), or one
// the interpreter built): changing it in place changes no other name's.
// A parameter, a module-level name or a helper's result may be a list
// held elsewhere.
func (w *evaluator) fresh(e elem) bool {
	if e.seq != nil {
		return true
	}
	if e.n == nil {
		return false
	}
	n := unparen(e.n)
	switch n.Type() {
	case "list", "tuple", "list_comprehension", "binary_operator":
		return true
	case "call":
		fn := n.ChildByFieldName("function")
		name := w.text(fn)
		return fn.Type() == "identifier" && (name == "list" || name == "sorted") && w.bindings[name] == 0 &&
			!inLocals(e.env, name)
	}
	return false
}

// changesOuter reports a nested def that may change a variable of the
// scopes around it: global or nonlocal, a list method or an item
// assignment on a name it does not bind itself. The interpreter reads
// such a helper's calls lazily (an assignment's value only when needed),
// so it refuses the function that defines it.
func (w *evaluator) changesOuter(def *sitter.Node) bool {
	own := map[string]bool{}
	for _, p := range children(def.ChildByFieldName("parameters")) {
		own[w.text(p)] = true
		if n := p.ChildByFieldName("name"); n != nil {
			own[w.text(n)] = true
		}
	}
	found := false
	var walk func(n *sitter.Node)
	walk = func(n *sitter.Node) {
		if found {
			return
		}
		switch n.Type() {
		case "global_statement", "nonlocal_statement":
			found = true
			return
		case "assignment":
			if l := n.ChildByFieldName("left"); l != nil && l.Type() == "identifier" {
				own[w.text(l)] = true
			}
		}
		for _, c := range children(n) {
			walk(c)
		}
	}
	walk(def.ChildByFieldName("body"))
	var changes func(n *sitter.Node)
	changes = func(n *sitter.Node) {
		if found {
			return
		}
		var target *sitter.Node
		switch n.Type() {
		case "call":
			if fn := n.ChildByFieldName("function"); fn.Type() == "attribute" && mutators[w.text(fn.ChildByFieldName("attribute"))] {
				target = fn.ChildByFieldName("object")
			}
		case "assignment", "augmented_assignment", "delete_statement":
			if l := n.ChildByFieldName("left"); l != nil && l.Type() == "subscript" {
				target = l.ChildByFieldName("value")
			} else if l != nil && l.Type() == "identifier" && n.Type() == "augmented_assignment" {
				target = l
			}
		}
		if target != nil && target.Type() == "identifier" && !own[w.text(target)] {
			found = true
			return
		}
		for _, c := range children(n) {
			changes(c)
		}
	}
	changes(def.ChildByFieldName("body"))
	return found
}
