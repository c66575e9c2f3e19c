package js

import (
	"math"

	sitter "github.com/smacker/go-tree-sitter"
)

// contexts expands the barriers between a parent and a call (lineage
// indexes, outermost first) into the bindings of every iteration, each
// chained onto e. ok is false when one of them is not a loop over data
// the source fixes: a while loop, a callback of an unknown function, an
// array built at run time.
func (w *walker) contexts(bars []int, e *env) ([]*env, bool) {
	envs := []*env{e}
	for _, b := range bars {
		var next []*env
		for _, e := range envs {
			more, ok := w.iterate(w.lin.path[b].node, e)
			if !ok {
				return nil, false
			}
			next = append(next, more...)
			if len(next) > maxRows {
				return nil, false
			}
		}
		envs = next
	}
	return envs, true
}

// iterate returns the bindings of each iteration of a loop or an array
// callback, in order.
func (w *walker) iterate(n *sitter.Node, e *env) ([]*env, bool) {
	switch n.Type() {
	case "for_in_statement":
		return w.forIn(n, e)
	case "for_statement":
		return w.forIndex(n, e)
	case "arrow_function", "function_expression", "function":
		if envs, ok := w.arrayCallback(n, e); ok {
			return envs, true
		}
		if w.foreignSuiteBody(n) {
			return []*env{e}, true
		}
		return w.iife(n, e)
	}
	return nil, false
}

// foreignSuiteBody reports whether fn is the last argument of a call of
// a foreign suite function (see walker.foreignSuites), which runs it once
// with no arguments.
func (w *walker) foreignSuiteBody(fn *sitter.Node) bool {
	args := fn.Parent()
	if args == nil || args.Type() != "arguments" || !same(args.NamedChild(int(args.NamedChildCount())-1), fn) {
		return false
	}
	callee := args.Parent().ChildByFieldName("function")
	return callee != nil && callee.Type() == "identifier" && w.foreignSuites[w.text(callee)] && len(w.paramNodes(fn)) == 0
}

// iife binds the parameters of a function called where it is written,
// (function (i) { ... })(i), which loops use to capture their variable.
func (w *walker) iife(fn *sitter.Node, e *env) ([]*env, bool) {
	callee := fn
	p := fn.Parent()
	for p != nil && p.Type() == "parenthesized_expression" {
		callee, p = p, p.Parent()
	}
	if p == nil || p.Type() != "call_expression" {
		return nil, false
	}
	if f := p.ChildByFieldName("function"); f == nil || !same(f, callee) {
		return nil, false
	}
	// The function sees its parameters and, around it, the loop.
	e2, ok := w.bindArgs(w.paramNodes(fn), p.ChildByFieldName("arguments"), fn.StartByte(), e, e)
	if !ok {
		return nil, false
	}
	return []*env{e2}, true
}

// forIn expands for (const x of array), for (const [k, v] of
// Object.entries(o)), for (const k in o) and for (const ch of string).
func (w *walker) forIn(n *sitter.Node, e *env) ([]*env, bool) {
	left, right, op := n.ChildByFieldName("left"), n.ChildByFieldName("right"), n.ChildByFieldName("operator")
	if left == nil || right == nil || op == nil {
		return nil, false
	}
	conds, ok := w.elementGuards(n.ChildByFieldName("body"), "continue_statement")
	if !ok {
		return nil, false
	}
	v := w.evalIn(right, e)
	var items []value
	switch {
	case w.text(op) == "of" && v.kind == kArray:
		items = v.arr
	case w.text(op) == "of" && v.kind == kString:
		for _, r := range v.str {
			items = append(items, str(string(r)))
		}
	case w.text(op) == "in" && v.isObject():
		keys, _ := ownKeys(v)
		for _, k := range keys {
			items = append(items, str(k))
		}
	default:
		return nil, false
	}
	out := make([]*env, 0, len(items))
	for _, it := range items {
		e2, ok := w.bindPattern(left, it, n.StartByte(), e)
		if !ok {
			return nil, false
		}
		skip, ok := w.guarded(conds, e2)
		if !ok {
			return nil, false
		}
		if !skip {
			out = append(out, e2)
		}
	}
	return out, true
}

// forIndex expands for (let i = A; i < B; i++) with A and B fixed by the
// source (B may be arr.length); also <=, >, >=, i--, i += k and i -= k.
func (w *walker) forIndex(n *sitter.Node, e *env) ([]*env, bool) {
	init, cond, inc := n.ChildByFieldName("initializer"), n.ChildByFieldName("condition"), n.ChildByFieldName("increment")
	if init == nil || cond == nil || inc == nil || w.exits(n.ChildByFieldName("body")) {
		return nil, false
	}
	if cond.Type() == "expression_statement" && cond.NamedChildCount() == 1 {
		cond = cond.NamedChild(0)
	}
	name, start, ok := w.loopStart(init, e)
	if !ok || cond.Type() != "binary_expression" {
		return nil, false
	}
	l, r, op := cond.ChildByFieldName("left"), cond.ChildByFieldName("right"), cond.ChildByFieldName("operator")
	if l == nil || r == nil || op == nil || l.Type() != "identifier" || w.text(l) != name {
		return nil, false
	}
	limit := w.evalIn(r, e)
	if limit.kind != kNumber {
		return nil, false
	}
	step, ok := w.loopStep(inc, name, e)
	if !ok || step == 0 {
		return nil, false
	}
	var out []*env
	for i := start; test(w.text(op), i, limit.num); i += step {
		if len(out) > maxRows {
			return nil, false
		}
		out = append(out, e.bind(name, num(i), n.StartByte()))
	}
	return out, true
}

func test(op string, a, b float64) bool {
	switch op {
	case "<":
		return a < b
	case "<=":
		return a <= b
	case ">":
		return a > b
	case ">=":
		return a >= b
	}
	return false
}

// loopStart reads let i = A (or var, or a plain i = A).
func (w *walker) loopStart(init *sitter.Node, e *env) (string, float64, bool) {
	var id, val *sitter.Node
	switch init.Type() {
	case "lexical_declaration", "variable_declaration":
		if init.NamedChildCount() != 1 {
			return "", 0, false
		}
		d := init.NamedChild(0)
		id, val = d.ChildByFieldName("name"), d.ChildByFieldName("value")
	case "expression_statement":
		if init.NamedChildCount() == 1 && init.NamedChild(0).Type() == "assignment_expression" {
			a := init.NamedChild(0)
			id, val = a.ChildByFieldName("left"), a.ChildByFieldName("right")
		}
	}
	if id == nil || val == nil || id.Type() != "identifier" {
		return "", 0, false
	}
	v := w.evalIn(val, e)
	if v.kind != kNumber || math.IsNaN(v.num) || math.IsInf(v.num, 0) {
		return "", 0, false
	}
	return w.text(id), v.num, true
}

// loopStep reads i++, ++i, i--, --i, i += k and i -= k.
func (w *walker) loopStep(inc *sitter.Node, name string, e *env) (float64, bool) {
	switch inc.Type() {
	case "update_expression":
		arg, op := inc.ChildByFieldName("argument"), inc.ChildByFieldName("operator")
		if arg == nil || op == nil || w.text(arg) != name {
			return 0, false
		}
		if w.text(op) == "++" {
			return 1, true
		}
		return -1, true
	case "augmented_assignment_expression":
		l, r, op := inc.ChildByFieldName("left"), inc.ChildByFieldName("right"), inc.ChildByFieldName("operator")
		if l == nil || r == nil || op == nil || w.text(l) != name {
			return 0, false
		}
		k := w.evalIn(r, e)
		if k.kind != kNumber || math.IsNaN(k.num) || math.IsInf(k.num, 0) {
			return 0, false
		}
		switch w.text(op) {
		case "+=":
			return k.num, true
		case "-=":
			return -k.num, true
		}
	}
	return 0, false
}

// arrayMethods are the array methods that call their callback once per
// element, in order, synchronously.
var arrayMethods = map[string]bool{"forEach": true, "map": true, "flatMap": true}

// arrayCallback expands the callback of array.forEach(fn), .map(fn) and
// .flatMap(fn) when the array is fixed by the source: the parameters take
// the element, the index and the array.
func (w *walker) arrayCallback(fn *sitter.Node, e *env) ([]*env, bool) {
	args := fn.Parent()
	if args == nil || args.Type() != "arguments" || args.NamedChildCount() == 0 || !same(args.NamedChild(0), fn) {
		return nil, false
	}
	call := args.Parent()
	callee := call.ChildByFieldName("function")
	if callee == nil || callee.Type() != "member_expression" {
		return nil, false
	}
	prop, obj := callee.ChildByFieldName("property"), callee.ChildByFieldName("object")
	if prop == nil || obj == nil || !arrayMethods[w.text(prop)] {
		return nil, false
	}
	conds, ok := w.elementGuards(fn.ChildByFieldName("body"), "return_statement")
	if !ok {
		return nil, false
	}
	arr := w.evalIn(obj, e)
	if arr.kind != kArray {
		return nil, false
	}
	params := w.paramNodes(fn)
	out := make([]*env, 0, len(arr.arr))
	for i, el := range arr.arr {
		e2 := e
		for k, p := range params {
			var v value
			switch k {
			case 0:
				v = el
			case 1:
				v = num(float64(i))
			case 2:
				v = arr
			}
			var ok bool
			if e2, ok = w.bindPattern(p, v, fn.StartByte(), e2); !ok {
				return nil, false
			}
		}
		skip, ok := w.guarded(conds, e2)
		if !ok {
			return nil, false
		}
		if !skip {
			out = append(out, e2)
		}
	}
	return out, true
}

// paramNodes lists a function's parameter patterns (x => ..., (a, {b}) => ...).
func (w *evaluator) paramNodes(fn *sitter.Node) []*sitter.Node {
	if p := fn.ChildByFieldName("parameter"); p != nil {
		return []*sitter.Node{p}
	}
	ps := fn.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []*sitter.Node
	for i := 0; i < int(ps.NamedChildCount()); i++ {
		p := ps.NamedChild(i)
		if p.Type() == "comment" {
			continue
		}
		out = append(out, p)
	}
	return out
}

// exits reports whether a loop's or callback's body may leave an
// iteration before the call being visited (the lineage's last step): a
// break, continue, return or throw outside a nested function that ends
// before the call starts, which could skip the tests of some elements.
// One that holds the call (return test(...)) or comes after it cannot.
func (w *walker) exits(body *sitter.Node) bool { return w.exitsSkipping(body, nil) }

// exitsSkipping is exits with the statements in skip (guards) left out.
func (w *walker) exitsSkipping(body *sitter.Node, skip []*sitter.Node) bool {
	if body == nil {
		return true
	}
	call := w.lin.top().node.StartByte()
	cur := sitter.NewTreeCursor(body)
	defer cur.Close()
	depth := 0
	for {
		n := cur.CurrentNode()
		t := n.Type()
		switch {
		case n.StartByte() >= call:
			return false // the rest comes after the call
		case (t == "break_statement" || t == "continue_statement" || t == "return_statement" || t == "throw_statement") && n.EndByte() <= call:
			return true
		case barriers[t] && depth > 0:
			// a nested function's or loop's own exits are its business
		case skipped(n, skip):
		default:
			if cur.GoToFirstChild() {
				depth++
				continue
			}
		}
		for !cur.GoToNextSibling() {
			if depth == 0 || !cur.GoToParent() {
				return false
			}
			depth--
		}
		if depth == 0 {
			return false
		}
	}
}

// reached reports whether the call being visited can run under the
// parent at index at with the bindings of w.env: false when an if
// statement between them has a condition the source fixes that sends
// control the other way (for (const c of cases) { if (c.skip) ... }).
// A condition it cannot read counts as reached, as everywhere else.
func (w *walker) reached(at int) bool {
	path := w.lin.path
	for i := max(at, 0); i < len(path)-1; i++ {
		if path[i].typ != "if_statement" {
			continue
		}
		cond, cons := path[i].node.ChildByFieldName("condition"), path[i].node.ChildByFieldName("consequence")
		if cond == nil || cons == nil {
			continue
		}
		t, ok := truthy(w.eval(cond, 0))
		if !ok {
			continue
		}
		inThen := same(path[i+1].node, cons)
		if t != inThen {
			return false
		}
	}
	return true
}
