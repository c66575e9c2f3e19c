package js

import (
	sitter "github.com/smacker/go-tree-sitter"
)

// readdirInfo is a loop over the entries of a folder: for (const f of
// fs.readdirSync(dir)) or fs.readdirSync(dir).forEach(f => ...), with
// .filter(...) and .sort() between.
type readdirInfo struct {
	dir     *sitter.Node // readdirSync's argument
	name    string       // the variable an entry is bound to; "" for a pattern
	filters []*pred      // the .filter callbacks' conditions
	bad     bool         // a .filter callback whose condition is not read
	exit    string       // the statement that skips an entry
}

// readdirLoop recognises the lineage step at index b as a loop over a
// folder's entries; nil when it is not one.
func (w *walker) readdirLoop(b int) *readdirInfo {
	path := w.lin.path
	n := path[b].node
	switch n.Type() {
	case "for_in_statement":
		op := n.ChildByFieldName("operator")
		if op == nil || w.text(op) != "of" {
			return nil
		}
		rd := w.readdirChain(n.ChildByFieldName("right"))
		if rd == nil {
			return nil
		}
		if left := n.ChildByFieldName("left"); left != nil && left.Type() == "identifier" {
			rd.name = w.text(left)
		}
		rd.exit = "continue_statement"
		return rd
	case "arrow_function", "function_expression", "function":
		if b < 2 || path[b-1].typ != "arguments" || path[b-2].typ != "call_expression" {
			return nil
		}
		args := path[b-1].node
		callee := path[b-2].node.ChildByFieldName("function")
		if callee == nil || callee.Type() != "member_expression" || args.NamedChildCount() == 0 || !same(args.NamedChild(0), n) {
			return nil
		}
		switch p := callee.ChildByFieldName("property"); {
		case p == nil:
			return nil
		case w.text(p) != "forEach" && w.text(p) != "map" && w.text(p) != "flatMap":
			return nil
		}
		rd := w.readdirChain(callee.ChildByFieldName("object"))
		if rd == nil {
			return nil
		}
		rd.name = firstParam(w, n)
		rd.exit = "return_statement"
		return rd
	}
	return nil
}

// firstParam names a function's first parameter when it is a plain name.
func firstParam(w *walker, fn *sitter.Node) string {
	ps := w.paramNodes(fn)
	if len(ps) == 0 {
		return ""
	}
	p := ps[0]
	if p.Type() == "required_parameter" {
		p = p.ChildByFieldName("pattern")
	}
	if p == nil || p.Type() != "identifier" {
		return ""
	}
	return w.text(p)
}

// maxChain bounds the .filter and .sort calls read after readdirSync.
const maxChain = 8

// readdirChain reads fs.readdirSync(dir) followed by .filter(cb) and
// .sort(...) calls; nil for anything else.
func (w *walker) readdirChain(n *sitter.Node) *readdirInfo {
	var filters []*pred
	bad := false
	for depth := 0; n != nil && depth < maxChain; depth++ {
		for n.Type() == "parenthesized_expression" && n.NamedChildCount() == 1 {
			n = n.NamedChild(0)
		}
		if n.Type() != "call_expression" {
			return nil
		}
		fn, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
		if fn == nil || args == nil {
			return nil
		}
		if mod, name := w.builtinCall(fn); mod == "fs" && name == "readdirSync" {
			k := int(args.NamedChildCount())
			if k == 0 || k > 2 || (k == 2 && args.NamedChild(1).Type() != "string") {
				return nil // no folder, or options such as withFileTypes
			}
			return &readdirInfo{dir: args.NamedChild(0), filters: filters, bad: bad}
		}
		if fn.Type() != "member_expression" {
			return nil
		}
		switch p := fn.ChildByFieldName("property"); {
		case p == nil:
			return nil
		case w.text(p) == "sort":
		case w.text(p) == "filter" && args.NamedChildCount() == 1 && isFunction(args.NamedChild(0).Type()):
			cb := args.NamedChild(0)
			pr, ok := w.predOf(returned(cb), firstParam(w, cb))
			if ok && pr != nil {
				filters = append(filters, pr)
			} else if !ok {
				bad = true
			}
		default:
			return nil
		}
		n = fn.ChildByFieldName("object")
	}
	return nil
}

// readdirFilter reads the conditions on the way from the loop at lineage
// index bar to the call being visited: the if statements around it, the
// skipping ifs before it (if (!f.endsWith('.js')) return;), and a && b
// with the call in b. ok is false when something else may skip the call
// or stop the loop.
func (w *walker) readdirFilter(rd *readdirInfo, bar int) (*pred, bool) {
	if rd.bad || rd.name == "" {
		return nil, false
	}
	path := w.lin.path
	var ps []*pred
	for i := bar + 1; i < len(path)-1; i++ {
		n, next := path[i].node, path[i+1].node
		switch path[i].typ {
		case "if_statement":
			cond := n.ChildByFieldName("condition")
			p, ok := w.predOf(cond, rd.name)
			if !ok || p == nil || same(next, cond) {
				return nil, false
			}
			if next.Type() == "else_clause" {
				p = not(p)
			}
			ps = append(ps, p)
		case "statement_block":
			gs, ok := w.guards(n, next, rd)
			if !ok {
				return nil, false
			}
			ps = append(ps, gs...)
		case "binary_expression":
			op, left, right := n.ChildByFieldName("operator"), n.ChildByFieldName("left"), n.ChildByFieldName("right")
			if op == nil || w.text(op) != "&&" || right == nil || !same(next, right) {
				return nil, false
			}
			p, ok := w.predOf(left, rd.name)
			if !ok || p == nil {
				return nil, false
			}
			ps = append(ps, p)
		case "ternary_expression", "switch_statement", "switch_case", "switch_default":
			return nil, false
		}
	}
	return and(ps...), true
}

// guards reads the statements of block before its child next: each must
// be a skipping if (whose condition, negated, filters the entries) or
// hold no statement that leaves the iteration.
func (w *walker) guards(block, next *sitter.Node, rd *readdirInfo) ([]*pred, bool) {
	var out []*pred
	for i := 0; i < int(block.NamedChildCount()); i++ {
		st := block.NamedChild(i)
		if st.StartByte() >= next.StartByte() {
			break
		}
		if st.Type() == "comment" {
			continue
		}
		if cond := w.skippingIf(st, rd.exit); cond != nil {
			p, ok := w.predOf(cond, rd.name)
			if !ok || p == nil {
				return nil, false
			}
			out = append(out, not(p))
			continue
		}
		if exitsIn(st) {
			return nil, false
		}
	}
	return out, true
}

// skippingIf returns the condition of if (cond) exit; (or { exit; })
// without else, nil for any other statement.
func (w *walker) skippingIf(st *sitter.Node, exit string) *sitter.Node {
	if st.Type() != "if_statement" || st.ChildByFieldName("alternative") != nil {
		return nil
	}
	cons := st.ChildByFieldName("consequence")
	if cons != nil && cons.Type() == "statement_block" {
		var only *sitter.Node
		for i := 0; i < int(cons.NamedChildCount()); i++ {
			if c := cons.NamedChild(i); c.Type() != "comment" {
				if only != nil {
					return nil
				}
				only = c
			}
		}
		cons = only
	}
	if cons == nil || cons.Type() != exit || (exit == "continue_statement" && cons.NamedChildCount() > 0) {
		return nil
	}
	return st.ChildByFieldName("condition")
}

// exitsIn reports whether a statement holds a return, throw, break or
// continue outside the functions inside it.
func exitsIn(st *sitter.Node) bool {
	cur := sitter.NewTreeCursor(st)
	defer cur.Close()
	depth := 0
	for {
		n := cur.CurrentNode()
		switch t := n.Type(); {
		case t == "return_statement" || t == "throw_statement" || t == "break_statement" || t == "continue_statement":
			return true
		case depth > 0 && isFunction(t), depth > 0 && t == "function_declaration", depth > 0 && t == "method_definition":
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
