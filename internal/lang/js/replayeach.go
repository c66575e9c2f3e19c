package js

import sitter "github.com/smacker/go-tree-sitter"

// A push in the callback of a forEach over an array the source fixes
// (dayjs's fs.readdirSync(dir).forEach((file) => { const p = ...;
// Locale.push({...}) }), once the linker read the folder) runs once per
// element, in order, before the statement after the forEach: it is
// replayed so, with the callback's parameters bound to each element, its
// index and the array. Only a callback whose other statements are const
// declarations (nothing in it returns early or changes the binding
// another way) is replayed, and only a forEach that is a statement of
// the binding's own scope.

// eachCallback returns the callback holding the change m, and the array
// expression its forEach runs over, when m is a push or unshift that is
// a statement of that callback and the forEach a statement of body; nil
// otherwise.
func (w *evaluator) eachCallback(m, body *sitter.Node) (cb, over *sitter.Node) {
	f := m.ChildByFieldName("function")
	if m.Type() != "call_expression" || f == nil || f.Type() != "member_expression" {
		return nil, nil
	}
	if p := w.text(f.ChildByFieldName("property")); p != "push" && p != "unshift" {
		return nil, nil
	}
	st := m.Parent()
	if st == nil || st.Type() != "expression_statement" || st.Parent() == nil || st.Parent().Type() != "statement_block" {
		return nil, nil
	}
	block := st.Parent()
	cb = block.Parent()
	if cb == nil || (cb.Type() != "arrow_function" && cb.Type() != "function_expression") || !same(cb.ChildByFieldName("body"), block) {
		return nil, nil
	}
	args := cb.Parent()
	if args == nil || args.Type() != "arguments" || args.NamedChildCount() != 1 {
		return nil, nil
	}
	call := args.Parent()
	callee := call.ChildByFieldName("function")
	if call.Type() != "call_expression" || callee == nil || callee.Type() != "member_expression" ||
		w.text(callee.ChildByFieldName("property")) != "forEach" || optional(callee) {
		return nil, nil
	}
	if s := call.Parent(); s == nil || s.Type() != "expression_statement" || !same(s.Parent(), body) {
		return nil, nil
	}
	for i := 0; i < int(block.NamedChildCount()); i++ {
		c := block.NamedChild(i)
		switch {
		case same(c, st), c.Type() == "comment":
		case c.Type() == "lexical_declaration" && c.ChildCount() > 0 && w.text(c.Child(0)) == "const":
		default:
			return nil, nil // a return, an if, another change: not replayed
		}
	}
	return cb, callee.ChildByFieldName("object")
}

// changeEach is the value prev after the change m ran once per element of
// the array over, in the callback cb.
func (w *evaluator) changeEach(m *sitter.Node, prev value, cb, over *sitter.Node, depth int) (value, bool) {
	name := w.text(m.ChildByFieldName("function").ChildByFieldName("object"))
	for _, o := range w.sites[name] {
		if !same(o, m) && inside(o, cb) {
			return value{}, false // another change in the callback
		}
	}
	arr := w.eval(over, depth+1)
	params := w.paramNodes(cb)
	if arr.kind != kArray || len(arr.arr) > maxRows || len(params) > 3 {
		return value{}, false
	}
	method := w.text(m.ChildByFieldName("function").ChildByFieldName("property"))
	base := w.env
	defer func() { w.env = base }()
	v := prev
	for i, el := range arr.arr {
		e := base
		for k, p := range params {
			var ok bool
			if e, ok = w.bindPattern(p, [3]value{el, num(float64(i)), arr}[k], cb.StartByte(), e); !ok {
				return value{}, false
			}
		}
		w.env = e
		argv, ok := w.args(m.ChildByFieldName("arguments"), depth)
		w.env = base
		if !ok {
			return value{}, false
		}
		if v, ok = mutate(v, method, argv); !ok {
			return value{}, false
		}
	}
	return v, true
}
