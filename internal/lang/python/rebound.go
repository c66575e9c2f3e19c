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
func (w *walker) mutation(a *sitter.Node) (string, modBinding, bool) {
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
	hs := w.history(name)
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
	hs := w.history(w.text(n))
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
