package python

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// modBinding is one module-level assignment of a name: NAME = value or
// NAME += value (n is the assignment), and whether it is a statement of
// the module itself (not inside an if, try or with).
type modBinding struct {
	n   *sitter.Node
	aug bool // X += seq, X.append(x) or X.extend(seq): X grows by what n adds (grown)
	top bool // a statement of the module itself, which the value can be read over
}

// mutators are the list methods that change a list in place; only
// append and extend are followed (grown).
var mutators = map[string]bool{"append": true, "extend": true, "insert": true, "remove": true, "pop": true,
	"clear": true, "sort": true, "reverse": true, "update": true, "add": true, "discard": true,
	"setdefault": true, "popitem": true}

// mutation reads a module-level statement that changes a name's value in
// place: X.append(x) and X.extend(seq) (followed), another list, dict or
// set method, or an assignment to X[k] (not followed: top is false). An
// imported name is a module: X.remove(...) is its function.
func (w *evaluator) mutation(a *sitter.Node) (string, modBinding, bool) {
	switch a.Type() {
	case "call":
		fn := a.ChildByFieldName("function")
		if fn == nil || fn.Type() != "attribute" || fn.ChildByFieldName("object").Type() != "identifier" {
			return "", modBinding{}, false
		}
		method := w.text(fn.ChildByFieldName("attribute"))
		if !mutators[method] {
			return "", modBinding{}, false
		}
		name := w.text(fn.ChildByFieldName("object"))
		if _, imported := w.facts.Imports[name]; imported {
			return "", modBinding{}, false // a module's function (os.remove), not a list's method
		}
		followed := (method == "append" || method == "extend") && len(callArgs(a)) == 1 &&
			callArgs(a)[0].Type() != "keyword_argument" && callArgs(a)[0].Type() != "list_splat"
		return name, modBinding{n: a, aug: true, top: followed}, true
	case "assignment", "augmented_assignment":
		left := a.ChildByFieldName("left")
		if left == nil || left.Type() != "subscript" {
			return "", modBinding{}, false
		}
		if x := left.ChildByFieldName("value"); x != nil && x.Type() == "identifier" {
			if _, imported := w.facts.Imports[w.text(x)]; !imported {
				return w.text(x), modBinding{n: a}, true
			}
		}
	}
	return "", modBinding{}, false
}

// deleted records del X[k] of a module-level name (not followed).
func (w *walker) deleted(x *sitter.Node) {
	if x.Type() != "subscript" {
		return
	}
	if x = x.ChildByFieldName("value"); x != nil && x.Type() == "identifier" {
		if _, imported := w.facts.Imports[w.text(x)]; !imported {
			w.bindings[w.text(x)] += 2
			w.remember(w.text(x), modBinding{n: x})
		}
	}
}

// grown is what an aug binding adds to its name's sequence.
func (w *evaluator) grown(h modBinding, depth int) ([]elem, seqKind, bool) {
	if h.n.Type() == "augmented_assignment" {
		if w.text(h.n.ChildByFieldName("operator")) != "+=" {
			return nil, seqOther, false
		}
		return w.sequence(h.n.ChildByFieldName("right"), depth+1)
	}
	args := callArgs(h.n)
	if len(args) != 1 {
		return nil, seqOther, false
	}
	if w.text(h.n.ChildByFieldName("function").ChildByFieldName("attribute")) == "append" {
		return []elem{{n: args[0]}}, seqList, true
	}
	return w.sequence(args[0], depth+1)
}

// insideDef reports a node inside a def or lambda: a name there is read
// when the function runs, not where it is written.
func insideDef(n *sitter.Node) bool {
	for p := n.Parent(); p != nil; p = p.Parent() {
		switch p.Type() {
		case "function_definition", "lambda":
			return true
		}
	}
	return false
}

// history returns a name's module-level bindings when every binding is
// a plain statement of the module (NAME = value, NAME += value): then
// the value a reference at the module level sees is the last one written
// before it.
func (w *evaluator) history(name string) []modBinding {
	hs := w.bound[name]
	total := 0
	for _, h := range hs {
		if !h.top {
			return nil
		}
		total++
		if h.aug {
			total++ // moduleAssign counts X += as two bindings
		}
	}
	if total != w.bindings[name] {
		return nil // also imported, defined, or bound another way
	}
	return hs
}

// seqAt reads a module-level name bound more than once as the sequence
// it holds at byte at (DATES = [...]; use; DATES += [...]; use): its last
// plain binding before at, extended by the += after it. A list that a +=
// after at extends in place is the longer list wherever it is held, so
// only a copy taken at at (list(X), tuple(X)) is known then.
func (w *evaluator) seqAt(name string, at uint32, copied bool, depth int) ([]elem, seqKind, bool) {
	return w.seqOver(w.history(name), at, copied, depth)
}

// seqOver reads a sequence over its bindings (a module's or a class
// body's, in order) as it is at byte at.
func (w *evaluator) seqOver(hs []modBinding, at uint32, copied bool, depth int) ([]elem, seqKind, bool) {
	start := -1
	for i, h := range hs {
		if h.n.StartByte() >= at {
			break
		}
		if !h.aug {
			start = i
		}
	}
	if start < 0 || depth > 20 {
		return nil, seqOther, false
	}
	saved := w.locals
	w.locals = nil
	defer func() { w.locals = saved }()
	items, kind, ok := w.sequence(hs[start].n.ChildByFieldName("right"), depth+1)
	if !ok || kind == seqOther {
		return nil, seqOther, false
	}
	for _, h := range hs[start+1:] {
		if !h.aug {
			break
		}
		if h.n.StartByte() >= at {
			if kind == seqList && !copied {
				return nil, seqOther, false
			}
			break
		}
		more, mk, ok := w.grown(h, depth)
		if !ok || kind == seqTuple && (mk != seqTuple || h.n.Type() != "augmented_assignment") || len(items)+len(more) > maxElems {
			return nil, seqOther, false
		}
		items = append(append([]elem(nil), items...), more...)
	}
	return items, kind, true
}

// identAt evaluates a module-level name bound more than once, at a
// reference at the module level: the value of its last plain binding
// before the reference, when no += follows that binding (whatever the
// += made, a list's or a tuple's ID is argname+index, but its repr would
// change).
func (w *evaluator) identAt(n *sitter.Node, depth int) (pyVal, bool) {
	if insideDef(n) {
		return pyVal{}, false
	}
	return w.identOver(w.history(w.text(n)), n, depth)
}

// identOver evaluates a name over its bindings at a reference.
func (w *evaluator) identOver(hs []modBinding, n *sitter.Node, depth int) (pyVal, bool) {
	at := n.StartByte()
	start := -1
	for i, h := range hs {
		if h.n.StartByte() >= at {
			break
		}
		if h.aug {
			start = -1
			continue
		}
		start = i
	}
	if start < 0 || depth > maxValueDepth {
		return pyVal{}, false
	}
	for _, h := range hs[start+1:] {
		if h.aug {
			return pyVal{}, false
		}
		break
	}
	saved := w.locals
	w.locals = nil
	defer func() { w.locals = saved }()
	return w.value(hs[start].n.ChildByFieldName("right"), depth+1), true
}

// classScope is the class body being walked: the names its statements
// bind by assignment, in order, and those bound otherwise (defs,
// imports, loops, branches), which are not followed. A decorator in the
// body sees these before the module's names (a method's body does not).
type classScope struct {
	body  *sitter.Node
	read  bool // bound and other are read (on first use: most bodies never need them)
	bound map[string][]modBinding
	other map[string]bool
}

// readClassScope reads a class body's bindings.
func (w *evaluator) readClassScope(cs *classScope) {
	cs.read, cs.bound, cs.other = true, map[string][]modBinding{}, map[string]bool{}
	for _, s := range children(cs.body) {
		switch s.Type() {
		case "comment", "pass_statement":
		case "expression_statement":
			a := s.NamedChild(0)
			if a == nil {
				continue
			}
			if name, b, ok := w.mutation(a); ok {
				cs.bound[name] = append(cs.bound[name], modBinding{n: b.n, aug: b.aug, top: b.top})
				continue
			}
			left := a.ChildByFieldName("left")
			switch {
			case a.Type() == "assignment" && left != nil && left.Type() == "identifier" && a.ChildByFieldName("right") != nil &&
				a.ChildByFieldName("right").Type() != "assignment":
				cs.bound[w.text(left)] = append(cs.bound[w.text(left)], modBinding{n: a, top: true})
			case a.Type() == "augmented_assignment" && left != nil && left.Type() == "identifier":
				cs.bound[w.text(left)] = append(cs.bound[w.text(left)], modBinding{n: a, aug: true, top: true})
			default:
				w.boundNames(s, cs.other)
			}
		case "function_definition", "class_definition", "decorated_definition":
			if d := definition(s); d != nil && d.ChildByFieldName("name") != nil {
				cs.other[w.text(d.ChildByFieldName("name"))] = true
			}
		default:
			w.boundNames(s, cs.other)
		}
	}
}

// boundNames adds every name a statement may bind (assignment and for
// targets, with ... as, imports, defs), anywhere in it: not the names it
// reads on the right of an assignment or in a for's sequence.
func (w *evaluator) boundNames(n *sitter.Node, out map[string]bool) {
	switch n.Type() {
	case "identifier":
		if p := n.Parent(); p != nil && !isNode(p.ChildByFieldName("right"), n) && !isNode(p.ChildByFieldName("value"), n) {
			switch p.Type() {
			case "assignment", "augmented_assignment", "for_statement", "for_in_clause", "as_pattern",
				"pattern_list", "tuple_pattern", "list_pattern", "dotted_name", "aliased_import",
				"function_definition", "class_definition", "named_expression", "global_statement", "nonlocal_statement":
				out[w.text(n)] = true
			}
		}
	}
	for _, c := range children(n) {
		w.boundNames(c, out)
	}
}

// classBinding finds a name's bindings in the class body being walked,
// for a reference in that body itself (a decorator, an assignment) and
// after at least one of them; unknown when the body binds it otherwise.
func (w *evaluator) classBinding(n *sitter.Node) (hs []modBinding, in, unknown bool) {
	cs := w.cls
	if cs == nil {
		return nil, false, false
	}
	if !cs.read {
		w.readClassScope(cs)
	}
	name := w.text(n)
	if !cs.other[name] && len(cs.bound[name]) == 0 {
		return nil, false, false
	}
	for p := n.Parent(); ; p = p.Parent() {
		if p == nil {
			return nil, false, false
		}
		if p.Equal(cs.body) {
			break
		}
		switch p.Type() {
		case "function_definition", "lambda", "class_definition":
			return nil, false, false // a method's body, or another class's
		}
	}
	if cs.other[name] {
		return nil, true, true
	}
	hs = cs.bound[name]
	if hs[0].n.StartByte() >= n.StartByte() {
		return nil, false, false // not bound yet: the module's name
	}
	return hs, true, false
}

// isNode reports whether a (possibly nil) node is n.
func isNode(a, n *sitter.Node) bool { return a != nil && a.Equal(n) }
