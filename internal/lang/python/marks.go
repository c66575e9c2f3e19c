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
		if alias, ok := w.markVars[w.text(e)]; ok && e.Type() == "identifier" {
			e = alias
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
			// ...)(f)): its rows are not read.
			m.Tables = append(m.Tables, w.dynamic(e))
			continue
		}
		name, ok := w.markName(e)
		if !ok {
			continue
		}
		switch name {
		case "parametrize":
			if args != nil {
				m.Tables = append(m.Tables, w.parametrize(args))
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
