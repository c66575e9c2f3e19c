package python

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// modBinding is one module-level assignment of a name: NAME = value or
// NAME += value (n is the assignment), and whether it is a statement of
// the module itself (not inside an if, try or with).
type modBinding struct {
	n   *sitter.Node
	aug bool
	top bool
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
		if w.text(h.n.ChildByFieldName("operator")) != "+=" {
			return nil, seqOther, false
		}
		more, mk, ok := w.sequence(h.n.ChildByFieldName("right"), depth+1)
		if !ok || kind == seqTuple && mk != seqTuple || len(items)+len(more) > maxElems {
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
