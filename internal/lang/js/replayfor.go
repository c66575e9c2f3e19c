package js

import sitter "github.com/smacker/go-tree-sitter"

// A push in an indexed for loop over the binding it changes (complex.js's
// for (let i = 0, len = tests.length; i < len; ++i) { if (tests[i].set
// ...) tests.push({...}) }) runs once per iteration the source decides: it
// is replayed so, the loop's variables and the binding itself pinned to
// their values at each iteration. Only a loop that is a statement of the
// binding's own scope is replayed, whose body is the push, or one if
// (without else) around it, and whose counter only its increment (i++,
// ++i, i += 1) changes; the condition of the loop and of the if must be
// decided at every iteration.

// forLoop returns the for statement whose body holds the change m as
// described above, and the if around m (nil when none); nil otherwise.
func (w *evaluator) forLoop(m, body *sitter.Node) (loop, guardIf *sitter.Node) {
	st := m.Parent()
	if st == nil || st.Type() != "expression_statement" {
		return nil, nil
	}
	n := st
	if p := soleParent(n); p != nil && p.Type() == "if_statement" && p.ChildByFieldName("alternative") == nil {
		guardIf, n = p, p
	}
	loop = soleParent(n)
	if loop == nil || loop.Type() != "for_statement" || !same(loop.Parent(), body) {
		return nil, nil
	}
	return loop, guardIf
}

// soleParent is the statement holding s as its body, directly or as the
// only statement of a block; nil otherwise.
func soleParent(s *sitter.Node) *sitter.Node {
	p := s.Parent()
	if p != nil && p.Type() == "statement_block" {
		named := 0
		for i := 0; i < int(p.NamedChildCount()); i++ {
			if p.NamedChild(i).Type() != "comment" {
				named++
			}
		}
		if named != 1 {
			return nil
		}
		p = p.Parent()
	}
	if p == nil || (p.Type() != "if_statement" && p.Type() != "for_statement") {
		return nil
	}
	return p
}

// replayed is a module-level loop's replay, kept for the file's other
// reads.
type replayed struct {
	v  value
	ok bool
}

// changeFor is prev after the loop ran the change m, under guardIf when
// it is not nil.
func (w *evaluator) changeFor(m *sitter.Node, prev value, loop, guardIf *sitter.Node, depth int) (value, bool) {
	name := w.text(m.ChildByFieldName("function").ChildByFieldName("object"))
	for _, o := range w.sites[name] {
		if !same(o, m) && inside(o, loop) {
			return value{}, false // another change in the loop
		}
	}
	init, cond, inc := loop.ChildByFieldName("initializer"), loop.ChildByFieldName("condition"), loop.ChildByFieldName("increment")
	if init == nil || cond == nil || inc == nil || init.Type() != "lexical_declaration" {
		return value{}, false
	}
	if cond.Type() == "expression_statement" && cond.NamedChildCount() == 1 {
		cond = cond.NamedChild(0)
	}
	counter, ok := w.increment(inc)
	if !ok {
		return value{}, false
	}
	savedPins := w.pinned
	w.pinned = map[string]value{}
	for k, v := range savedPins {
		w.pinned[k] = v
	}
	savedMemo, savedCalls := w.memo, w.callMemo
	w.memo, w.callMemo = map[memoKey]value{}, map[callKey]value{} // what is read with pins holds only here
	defer func() { w.pinned, w.memo, w.callMemo = savedPins, savedMemo, savedCalls }()
	w.pinned[name] = prev
	vars := map[string]bool{}
	for j := 0; j < int(init.NamedChildCount()); j++ {
		d := init.NamedChild(j)
		id, val := d.ChildByFieldName("name"), d.ChildByFieldName("value")
		if d.Type() != "variable_declarator" || id == nil || val == nil || id.Type() != "identifier" {
			return value{}, false
		}
		v := w.eval(val, depth+1)
		if !v.known() {
			return value{}, false
		}
		w.pinned[w.text(id)], vars[w.text(id)] = v, true
	}
	if !vars[counter] || vars[name] {
		return value{}, false
	}
	for _, o := range w.mutationSites(counter) {
		if inside(o, loop) && !inside(o, inc) {
			return value{}, false // the body changes the counter
		}
	}
	method := w.text(m.ChildByFieldName("function").ChildByFieldName("property"))
	for iter := 0; ; iter++ {
		if iter > maxRows {
			return value{}, false
		}
		go_, ok := truthy(w.eval(cond, depth+1))
		if !ok {
			return value{}, false
		}
		if !go_ {
			return w.pinned[name], true
		}
		run := true
		if guardIf != nil {
			if run, ok = truthy(w.eval(guardIf.ChildByFieldName("condition"), depth+1)); !ok {
				return value{}, false
			}
		}
		if run {
			argv, ok := w.args(m.ChildByFieldName("arguments"), depth)
			if !ok {
				return value{}, false
			}
			v, ok := mutate(w.pinned[name], method, argv)
			if !ok {
				return value{}, false
			}
			w.pinned[name] = v
		}
		c := w.pinned[counter]
		if c.kind != kNumber {
			return value{}, false
		}
		w.pinned[counter] = num(c.num + 1)
	}
}

// increment names the counter an increment expression adds one to:
// i++, ++i or i += 1.
func (w *evaluator) increment(inc *sitter.Node) (string, bool) {
	switch inc.Type() {
	case "update_expression":
		arg := inc.ChildByFieldName("argument")
		if arg != nil && arg.Type() == "identifier" && w.text(inc) != w.text(arg)+"--" && w.text(inc) != "--"+w.text(arg) {
			return w.text(arg), true
		}
	case "augmented_assignment_expression":
		l, r, op := inc.ChildByFieldName("left"), inc.ChildByFieldName("right"), inc.ChildByFieldName("operator")
		if l != nil && r != nil && op != nil && l.Type() == "identifier" && w.text(op) == "+=" && w.text(r) == "1" {
			return w.text(l), true
		}
	}
	return "", false
}
