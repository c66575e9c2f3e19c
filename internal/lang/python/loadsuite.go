package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// exactSuite reads a load_tests hook whose suite is exactly the tests of
// some classes of its module, as CPython's test_io builds it:
//
//	def load_tests(loader, tests, pattern):
//	    tests = (CIOTest, PyIOTest, ...)
//	    suite = loader.suiteClass()
//	    for test in tests:
//	        suite.addTest(loader.loadTestsFromTestCase(test))
//	    return suite
//
// It returns those classes' local names, nil when the hook does anything
// else that could add tests: another call that adds or loads tests,
// the standard tests used, a suite made with arguments, or a return of
// anything but the suite.
func (s *dynScan) exactSuite(d *sitter.Node) []string {
	params, body := d.ChildByFieldName("parameters"), d.ChildByFieldName("body")
	if params == nil || body == nil || params.NamedChildCount() != 3 {
		return nil
	}
	standard := s.w.text(params.NamedChild(1))
	lists := map[string][]string{} // NAME = (Class, ...) in the body
	suites := map[string]bool{}    // NAME = loader.suiteClass() or unittest.TestSuite()
	stmts := children(body)
	for i, st := range stmts {
		if st.Type() != "expression_statement" || st.NamedChildCount() != 1 || st.NamedChild(0).Type() != "assignment" {
			continue
		}
		a := st.NamedChild(0)
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if left == nil || right == nil || left.Type() != "identifier" {
			return nil
		}
		name := s.w.text(left)
		if names, ok := s.classNames(right); ok {
			if name == standard && i != 0 {
				return nil // the standard tests used before rebound
			}
			lists[name] = names
		} else if s.emptySuite(right) {
			suites[name] = true
		}
	}
	if _, rebound := lists[standard]; !rebound && strings.Contains(s.w.text(body), standard) {
		return nil
	}
	var out []string
	ok := true
	walkAll(body, 0, func(n *sitter.Node) {
		switch n.Type() {
		case "return_statement":
			if n.NamedChildCount() != 1 || !suites[s.w.text(n.NamedChild(0))] {
				ok = false
			}
		case "call":
			callee := s.w.text(n.ChildByFieldName("function"))
			last := callee[strings.LastIndexByte(callee, '.')+1:]
			switch {
			case last == "addTest" || last == "addTests":
				names := s.addedClasses(n, body, lists)
				ok = ok && names != nil
				out = append(out, names...)
			case last == "loadTestsFromTestCase" || last == "suiteClass" || last == "TestSuite":
			default:
				ok = ok && !strings.Contains(last, "load") && !strings.Contains(last, "Suite") && !loaderCalls[last]
			}
		}
	})
	if !ok || len(out) == 0 {
		return nil
	}
	return out
}

// classNames reads a tuple or list of module-level class names.
func (s *dynScan) classNames(n *sitter.Node) ([]string, bool) {
	n = unparen(n)
	if n.Type() != "tuple" && n.Type() != "list" {
		return nil, false
	}
	var out []string
	for _, c := range children(n) {
		if c.Type() != "identifier" || !s.w.defined[s.w.text(c)] {
			return nil, false
		}
		out = append(out, s.w.text(c))
	}
	return out, len(out) > 0
}

// emptySuite reports loader.suiteClass() or unittest.TestSuite() with no
// tests given.
func (s *dynScan) emptySuite(n *sitter.Node) bool {
	if n.Type() != "call" || n.ChildByFieldName("arguments").NamedChildCount() != 0 {
		return false
	}
	callee := s.w.resolve(s.w.text(n.ChildByFieldName("function")))
	return strings.HasSuffix(callee, ".suiteClass") || callee == "unittest.TestSuite"
}

// addedClasses reads suite.addTest(loader.loadTestsFromTestCase(X)) where
// X is a module class or a for variable over a list of them; nil for
// anything else.
func (s *dynScan) addedClasses(call, body *sitter.Node, lists map[string][]string) []string {
	args := children(call.ChildByFieldName("arguments"))
	if len(args) != 1 || args[0].Type() != "call" {
		return nil
	}
	inner := args[0]
	callee := s.w.text(inner.ChildByFieldName("function"))
	iargs := children(inner.ChildByFieldName("arguments"))
	if !strings.HasSuffix(callee, ".loadTestsFromTestCase") || len(iargs) != 1 || iargs[0].Type() != "identifier" {
		return nil
	}
	x := s.w.text(iargs[0])
	for n := call.Parent(); n != nil && n != body; n = n.Parent() {
		if n.Type() == "for_statement" && s.w.text(n.ChildByFieldName("left")) == x {
			right := n.ChildByFieldName("right")
			if names, ok := s.classNames(right); ok {
				return names
			}
			if right != nil && right.Type() == "identifier" {
				return lists[s.w.text(right)]
			}
			return nil
		}
	}
	if s.w.defined[x] && s.w.bindings[x] == 1 {
		return []string{x}
	}
	return nil
}
