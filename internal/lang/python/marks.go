package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// untaggedMarks are marks that shape a test rather than label it.
var untaggedMarks = map[string]bool{"parametrize": true, "usefixtures": true, "filterwarnings": true}

// marks reads decorator (or pytestmark) expressions in application order.
// It returns their tags, whether they skip statically, the parametrize
// tables, and false when a decorator makes the function a fixture.
func (w *walker) marks(exprs []*sitter.Node) (markSet, bool) {
	var m markSet
	for _, e := range exprs {
		shared := false // a mark bound to a name used more than once
		if alias, ok := w.markVars[w.text(e)]; ok && e.Type() == "identifier" {
			e, shared = alias, w.words(w.text(e)) > 2
		}
		call, args := e, (*sitter.Node)(nil)
		if e.Type() == "call" {
			call, args = e.ChildByFieldName("function"), e.ChildByFieldName("arguments")
		}
		callee := w.resolve(w.text(call))
		switch {
		case callee == "pytest.fixture" || callee == "pytest.yield_fixture":
			return m, false
		case strings.HasPrefix(callee, "unittest."):
			w.unittestDecorator(strings.TrimPrefix(callee, "unittest."), args, &m)
			continue
		case call.Type() == "identifier" && w.paramDecs[callee] && w.bindings[callee] == 1:
			// A decorator of the module that parametrizes in its body
			// (def mark_dualiter(...): return pytest.mark.parametrize(
			// ...)(f)): its rows are read with its parameters bound to
			// the call's arguments when that is all it does.
			if t, ok := w.inlineParametrize(w.paramDefs[callee], args); ok {
				m.Tables = append(m.Tables, t)
			} else {
				m.Tables = append(m.Tables, w.dynamic(e))
			}
			continue
		}
		name, ok := w.markName(e)
		if !ok {
			continue
		}
		switch name {
		case "parametrize":
			if args != nil {
				t := w.parametrize(args)
				if shared {
					t = spend(markSet{Tables: []table{t}}).Tables[0]
				}
				m.Tables = append(m.Tables, t)
			}
		case "usefixtures":
			if args != nil {
				for _, a := range children(args) {
					if v, _, ok := decodeString(w.text(a)); ok && a.Type() == "string" {
						m.Uses = appendUnique(m.Uses, v)
					}
				}
			}
		case "skip":
			m.Skip = true
		case "skipif":
			if args != nil && args.NamedChildCount() > 0 && args.NamedChild(0).Type() == "true" {
				m.Skip = true
			}
		}
		if !untaggedMarks[name] {
			m.Tags = appendUnique(m.Tags, name)
		}
	}
	return m, true
}

// unittestDecorator applies unittest.skip, skipIf and skipUnless.
func (w *walker) unittestDecorator(name string, args *sitter.Node, m *markSet) {
	first := ""
	if args != nil && args.NamedChildCount() > 0 {
		first = args.NamedChild(0).Type()
	}
	switch name {
	case "skip", "case.skip":
		m.Skip = true
	case "skipIf", "case.skipIf":
		m.Skip = m.Skip || first == "true"
	case "skipUnless", "case.skipUnless":
		m.Skip = m.Skip || first == "false"
	}
}

// markName returns X for pytest.mark.X and pytest.mark.X(...), under any
// import alias (import pytest as pt; from pytest import mark).
func (w *walker) markName(e *sitter.Node) (string, bool) {
	if e.Type() == "call" {
		e = e.ChildByFieldName("function")
	}
	if e == nil || e.Type() != "attribute" {
		return "", false
	}
	full := w.resolve(w.text(e))
	name, ok := strings.CutPrefix(full, "pytest.mark.")
	if !ok || name == "" || strings.Contains(name, ".") {
		return "", false
	}
	return name, true
}

// resolve rewrites a dotted name's first part through the file's imports:
// "pt.mark.x" -> "pytest.mark.x" after import pytest as pt.
func (w *evaluator) resolve(dotted string) string {
	first, rest, hasRest := strings.Cut(dotted, ".")
	full, ok := w.facts.Imports[first]
	if !ok {
		return dotted
	}
	if hasRest {
		return full + "." + rest
	}
	return full
}

// inlineParametrize reads a decorator factory of the module called with
// positional arguments, as jinja2's tests write one:
//
//	def mark_dualiter(parameter, factory):
//	    def decorator(f):
//	        return pytest.mark.parametrize(
//	            parameter, [lambda: factory(), lambda: make_aiter(factory())]
//	        )(f)
//	    return decorator
//
// Its table is the parametrize call's, read with the factory's parameters
// bound to the arguments. ok is false for any other body.
func (w *walker) inlineParametrize(def, args *sitter.Node) (table, bool) {
	if def == nil || args == nil {
		return table{}, false
	}
	ps := w.plainParams(def)
	stmts := children(def.ChildByFieldName("body"))
	if len(stmts) > 0 && stmts[0].Type() == "expression_statement" && stmts[0].NamedChild(0).Type() == "string" {
		stmts = stmts[1:]
	}
	given := children(args)
	if ps == nil || len(given) != len(ps) || len(stmts) != 2 || stmts[0].Type() != "function_definition" {
		return table{}, false
	}
	inner := stmts[0]
	name := w.text(inner.ChildByFieldName("name"))
	if ret := stmts[1]; ret.Type() != "return_statement" || ret.NamedChildCount() != 1 || w.text(ret.NamedChild(0)) != name {
		return table{}, false
	}
	f := w.plainParams(inner)
	body := children(inner.ChildByFieldName("body"))
	if len(f) != 1 || len(body) != 1 || body[0].Type() != "return_statement" || body[0].NamedChildCount() != 1 {
		return table{}, false
	}
	apply := unparen(body[0].NamedChild(0)) // pytest.mark.parametrize(...)(f)
	if apply.Type() != "call" || w.text(apply.ChildByFieldName("arguments")) != "("+f[0]+")" {
		return table{}, false
	}
	mark := apply.ChildByFieldName("function")
	if n, ok := w.markName(mark); !ok || n != "parametrize" || mark.Type() != "call" {
		return table{}, false
	}
	env := map[string]elem{}
	for i, p := range ps {
		if given[i].Type() == "keyword_argument" || given[i].Type() == "list_splat" || given[i].Type() == "dictionary_splat" {
			return table{}, false
		}
		env[p] = elem{n: given[i], env: w.locals}
	}
	saved := w.locals
	w.locals = env
	defer func() { w.locals = saved }()
	return w.parametrize(mark.ChildByFieldName("arguments")), true
}

// plainParams returns a function's parameter names when all are plain
// identifiers (no defaults, annotations or splats); nil otherwise.
func (w *walker) plainParams(def *sitter.Node) []string {
	ps := def.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	out := []string{}
	for _, p := range children(ps) {
		if p.Type() != "identifier" {
			return nil
		}
		out = append(out, w.text(p))
	}
	return out
}
