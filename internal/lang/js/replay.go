package js

import sitter "github.com/smacker/go-tree-sitter"

// A binding that the code changes after it is made (items = ...,
// item.pop(), seen.add(x)) holds, at a read, what the changes before the
// read made of it. replay computes that value where the order of the
// changes and the read is fixed by the source: each change before the read
// is a statement of the binding's own scope that runs once (inside ifs
// whose conditions the source fixes, not in a loop or a function), and no
// change after the read can run before it (none in a function, none in a
// loop around the read). Anything else leaves the read unknown: a title
// built from it is a dynamic record, never a guess.

// mutationSites returns the assignments and mutating calls that may change
// name, in source order.
func (w *evaluator) mutationSites(name string) []*sitter.Node {
	w.mutated(name) // scans the file once
	return w.sites[name]
}

// replayEnv is the value of a loop variable or parameter b read at n.
func (w *evaluator) replayEnv(n *sitter.Node, name string, b *env, depth int) (value, bool) {
	if len(w.mutationSites(name)) == 0 {
		return b.val, true
	}
	if s, ok := w.scopes[b.scope]; ok && inside(n, s) {
		return w.replay(n, name, b.val, s, depth)
	}
	for p := n.Parent(); p != nil; p = p.Parent() {
		if p.StartByte() == b.scope && barriers[p.Type()] {
			w.scopes[b.scope] = p
			return w.replay(n, name, b.val, p, depth)
		}
	}
	return value{}, false // the binding's scope is not around the read
}

// replay is the value of name read at n, made v by scope (a loop or a
// function; nil for the module) and changed by the statements before n.
func (w *evaluator) replay(n *sitter.Node, name string, v value, scope *sitter.Node, depth int) (value, bool) {
	if depth > maxEvalDepth {
		return value{}, false
	}
	body := w.root
	if scope != nil {
		if body = scope.ChildByFieldName("body"); body == nil {
			return value{}, false
		}
	}
	var last *sitter.Node
	placed := false
	for _, m := range w.mutationSites(name) {
		switch {
		case !inside(m, body): // another binding's, or a for loop's own i++
			continue
		case m.StartByte() <= n.StartByte() && n.EndByte() <= m.EndByte():
			continue // the read is part of the change: it sees the value before it
		case w.runsLater(m, n, body):
			continue // in a test's body, which runs after every title is read
		case scope != nil && scope.Type() == "for_statement":
			return value{}, false // a counter changed in the body changes the iterations
		case !placed && !w.inPlace(n, body):
			return value{}, false // n is in a function that may run before or after m
		case m.EndByte() <= n.StartByte():
			last = m
		case !w.runsAfter(m, n, body):
			return value{}, false
		}
		placed = true
	}
	if last == nil {
		return v, true
	}
	return w.change(last, name, body, depth)
}

// inside reports whether node n lies within node outer.
func inside(n, outer *sitter.Node) bool {
	return outer.StartByte() <= n.StartByte() && n.EndByte() <= outer.EndByte()
}

// runsAfter reports whether a change m written after the read n cannot
// run before it: m is in no function (which could be called earlier) and
// in no loop that holds n too.
func (w *evaluator) runsAfter(m, n, body *sitter.Node) bool {
	for p := m.Parent(); p != nil && !same(p, body); p = p.Parent() {
		t := p.Type()
		if loops[t] && inside(n, p) {
			return false
		}
		if barriers[t] && !loops[t] {
			return false
		}
	}
	return true
}

// runsLater reports whether the change m lies in a test's body that does
// not hold the read n.
func (w *evaluator) runsLater(m, n, body *sitter.Node) bool {
	if w.later == nil {
		return false
	}
	for p := m.Parent(); p != nil && !same(p, body); p = p.Parent() {
		if isFunction(p.Type()) && !inside(n, p) && w.later(p) {
			return true
		}
	}
	return false
}

// inPlace reports whether the read n runs where it is written, as far as
// body: every function between them is a callback passed to a call
// (describe's) or called where it stands, not a named function whose calls
// are elsewhere.
func (w *evaluator) inPlace(n, body *sitter.Node) bool {
	for p := n.Parent(); p != nil && !same(p, body); p = p.Parent() {
		if !barriers[p.Type()] || loops[p.Type()] {
			continue
		}
		up := p.Parent()
		for up != nil && up.Type() == "parenthesized_expression" {
			up = up.Parent()
		}
		if !isFunction(p.Type()) || up == nil || (up.Type() != "arguments" && up.Type() != "call_expression") {
			return false
		}
	}
	return true
}

// change is the value of name after the change m, which the read follows:
// the value before m (the changes before it replayed) with m applied when
// it runs.
func (w *evaluator) change(m *sitter.Node, name string, body *sitter.Node, depth int) (value, bool) {
	var target, prop *sitter.Node
	switch m.Type() {
	case "assignment_expression":
		target = m.ChildByFieldName("left")
		if target != nil && (target.Type() == "member_expression" || target.Type() == "subscript_expression") {
			prop, target = target, target.ChildByFieldName("object") // o.k = v, o['k'] = v
		}
	case "call_expression":
		if f := m.ChildByFieldName("function"); f != nil && f.Type() == "member_expression" {
			target = f.ChildByFieldName("object")
		}
	}
	if target == nil || target.Type() != "identifier" || w.text(target) != name {
		return value{}, false // x.y = ..., x[i] = ..., x++: not replayed
	}
	for _, o := range w.sites[name] {
		if !same(o, m) && inside(o, m) {
			return value{}, false // a.push(a.pop()): one change inside another
		}
	}
	saved := w.env
	w.env = w.env.before(m.StartByte())
	defer func() { w.env = saved }()
	prev := w.eval(target, depth+1)
	if prev.kind == kUnknown && prev.set == nil {
		return value{}, false
	}
	if cb, over := w.eachCallback(m, body); cb != nil {
		return w.changeEach(m, prev, cb, over, depth)
	}
	if loop, guardIf := w.forLoop(m, body); loop != nil && m.Type() == "call_expression" {
		if !same(body, w.root) {
			return w.changeFor(m, prev, loop, guardIf, depth)
		}
		r, hit := w.forMemo[m.StartByte()] // a module-level loop runs once: replayed once
		if !hit {
			r.v, r.ok = w.changeFor(m, prev, loop, guardIf, depth)
			if w.forMemo == nil {
				w.forMemo = map[uint32]replayed{}
			}
			w.forMemo[m.StartByte()] = r
		}
		return r.v, r.ok
	}
	runs, ok := w.runsOnce(m, body, depth)
	switch {
	case !ok:
		return value{}, false
	case !runs:
		return prev, true
	case m.Type() == "assignment_expression":
		if op := m.ChildByFieldName("operator"); op != nil && w.text(op) != "=" {
			return value{}, false
		}
		v := w.eval(m.ChildByFieldName("right"), depth+1)
		if prop != nil {
			return w.setProperty(prev, prop, v, depth)
		}
		return v, v.kind != kUnknown || v.set != nil
	}
	f := m.ChildByFieldName("function")
	argv, ok := w.args(m.ChildByFieldName("arguments"), depth)
	if !ok {
		return value{}, false
	}
	return mutate(prev, w.text(f.ChildByFieldName("property")), argv)
}

// setProperty is the object o after o.k = v or o[k] = v (k a string or
// a number): an existing key keeps its place, a new one comes last (the
// integer-like keys are ordered when read, see ownKeys). An array, a
// computed key the source does not fix, __proto__ or an optional chain
// are not replayed.
func (w *evaluator) setProperty(o value, target *sitter.Node, v value, depth int) (value, bool) {
	if o.kind != kObject || optional(target) {
		return value{}, false
	}
	var key string
	switch target.Type() {
	case "member_expression":
		p := target.ChildByFieldName("property")
		if p == nil || p.Type() != "property_identifier" {
			return value{}, false
		}
		key = w.text(p)
	default:
		k := w.eval(target.ChildByFieldName("index"), depth+1)
		if k.kind != kString && k.kind != kNumber {
			return value{}, false
		}
		key = k.jsString()
	}
	if key == "__proto__" {
		return value{}, false
	}
	out := value{kind: kObject, keys: append([]string(nil), o.keys...), vals: append([]value(nil), o.vals...)}
	found := false
	for i, k := range out.keys {
		if k == key {
			out.vals[i], found = v, true
		}
	}
	if !found {
		out.keys, out.vals = append(out.keys, key), append(out.vals, v)
	}
	return out, true
}

// runsOnce reports whether the statement holding m runs exactly once
// before what follows it in body: runs is false when an if the source
// decides skips it; ok is false when the source does not decide, or m is
// not a statement of its own (a loop, a function, a condition, a ternary).
func (w *evaluator) runsOnce(m, body *sitter.Node, depth int) (runs, ok bool) {
	p, inner := m.Parent(), m
	for p != nil && typeWrappers[p.Type()] { // item.pop() as T
		p, inner = p.Parent(), p
	}
	if p == nil {
		return false, false
	}
	switch p.Type() {
	case "expression_statement":
	case "variable_declarator":
		if v := p.ChildByFieldName("value"); v == nil || !same(v, inner) {
			return false, false
		}
	default:
		return false, false
	}
	prev := p
	for p = p.Parent(); p != nil && !same(p, body); prev, p = p, p.Parent() {
		switch p.Type() {
		case "statement_block", "else_clause", "lexical_declaration", "variable_declaration":
		case "if_statement":
			cons := p.ChildByFieldName("consequence")
			if cons == nil || (!same(prev, cons) && prev.Type() != "else_clause") {
				return false, false
			}
			saved := w.env
			w.env = w.env.before(p.StartByte())
			taken, known := truthy(w.eval(p.ChildByFieldName("condition"), depth+1))
			w.env = saved
			if !known {
				return false, false
			}
			if taken != same(prev, cons) {
				return false, true
			}
		default:
			return false, false
		}
	}
	return true, p != nil
}

// typeWrappers are the expressions that only wrap another's value.
var typeWrappers = map[string]bool{"parenthesized_expression": true, "as_expression": true,
	"satisfies_expression": true, "non_null_expression": true}

// args evaluates a call's arguments; ok is false for a spread.
func (w *evaluator) args(args *sitter.Node, depth int) ([]value, bool) {
	if args == nil || args.Type() != "arguments" {
		return nil, false
	}
	var argv []value
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		switch a.Type() {
		case "comment":
			continue
		case "spread_element":
			return nil, false
		}
		argv = append(argv, w.eval(a, depth+1))
	}
	return argv, true
}

// mutate is the value a mutating method leaves its array or Set with.
// An element pushed or unshifted may be partly unknown (an object with a
// function in it): what a title reads of it is known or not as it is.
func mutate(o value, method string, argv []value) (value, bool) {
	for _, a := range argv {
		if !a.known() && (o.kind != kArray || (method != "push" && method != "unshift")) {
			return value{}, false
		}
	}
	if o.set != nil && method == "add" && len(argv) >= 1 {
		if !setKey(argv[0]) {
			return value{}, false
		}
		if _, has := setHas(o, argv[0]); !has {
			o.set = append(append([]value(nil), o.set...), argv[0])
		}
		return o, true
	}
	if o.kind != kArray {
		return value{}, false
	}
	arr := o.arr
	switch method {
	case "pop":
		if len(arr) > 0 {
			arr = arr[:len(arr)-1]
		}
	case "shift":
		if len(arr) > 0 {
			arr = arr[1:]
		}
	case "push":
		arr = append(append([]value(nil), arr...), argv...)
	case "unshift":
		arr = append(append([]value(nil), argv...), arr...)
	case "splice":
		start, end, ok := spliceRange(len(arr), argv)
		if !ok {
			return value{}, false
		}
		out := append([]value(nil), arr[:start]...)
		if len(argv) > 2 {
			out = append(out, argv[2:]...)
		}
		arr = append(out, arr[end:]...)
	default:
		return value{}, false
	}
	return value{kind: kArray, arr: arr}, true
}
