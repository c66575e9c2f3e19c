package js

import sitter "github.com/smacker/go-tree-sitter"

// A loop or array callback whose body skips some elements before the
// call being visited, with guard statements (js-yaml's
// fs.readdirSync(dir).forEach(function (f) { if (path.extname(f) !==
// '.js') return; it(path.basename(f, '.js'), ...) })), is expanded when
// each guard's condition is known for each element: the elements a guard
// skips declare nothing. Any other way out of an iteration before the
// call, or a guard condition the source does not decide for some
// element, leaves the loop unexpanded, as before.

// elementGuards returns the conditions of the guards in body before the call
// being visited: statements of body itself, if (cond) exit; or if (cond)
// { exit; } with no else, where exit is a return_statement (a callback)
// or a continue_statement (a loop). ok is false when something else may
// leave the iteration before the call.
func (w *walker) elementGuards(body *sitter.Node, exit string) (conds []*sitter.Node, ok bool) {
	if body == nil {
		return nil, false
	}
	if !w.exits(body) {
		return nil, true
	}
	if body.Type() != "statement_block" {
		return nil, false
	}
	call := w.lin.top().node.StartByte()
	var skip []*sitter.Node
	for i := 0; i < int(body.NamedChildCount()); i++ {
		c := body.NamedChild(i)
		if c.EndByte() > call {
			break
		}
		if cond := w.skippingIf(c, exit); cond != nil {
			conds, skip = append(conds, cond), append(skip, c)
		}
	}
	if len(conds) == 0 || w.exitsSkipping(body, skip) {
		return nil, false
	}
	return conds, true
}

// guarded reports whether a guard skips the element bound in e; ok is
// false when a guard's condition is not known for it.
func (w *walker) guarded(conds []*sitter.Node, e *env) (skip, ok bool) {
	for _, c := range conds {
		t, known := truthy(w.evalIn(c, e))
		if !known {
			return false, false
		}
		if t {
			return true, true
		}
	}
	return false, true
}

// skipped reports whether n is one of the nodes in skip.
func skipped(n *sitter.Node, skip []*sitter.Node) bool {
	for _, s := range skip {
		if same(n, s) {
			return true
		}
	}
	return false
}
