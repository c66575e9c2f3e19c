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

// renamed is a load_tests hook's loop that loads every TestCase class of
// fresh imports of one module, each import's classes renamed with a
// suffix of a literal list, as CPython's test_datetime does:
//
//	pure = import_fresh_module(TESTS, fresh=[...], blocked=[...])
//	fast = import_fresh_module(TESTS, fresh=[...])
//	for module, suffix in zip([pure, fast], ["_Pure", "_Fast"]):
//	    for name, cls in module.__dict__.items():
//	        if issubclass(cls, unittest.TestCase): test_classes.append(cls)
//	    for cls in test_classes:
//	        cls.__qualname__ += suffix
//	        tests.addTests(loader.loadTestsFromTestCase(cls))
//
// Rest says the hook may add other tests too (a TestSuite's, another
// addTests): the module's dynamic record stays for them.
type renamed struct {
	Target   string   `json:"t"`
	Suffixes []string `json:"s"`
	Rest     bool     `json:"r,omitempty"`
}

// renamedLoads finds that loop in a hook's body; nil when it is not there.
func (s *dynScan) renamedLoads(body *sitter.Node) *renamed {
	binds := map[string][]*sitter.Node{} // local NAME = value, anywhere in the body
	walkAll(body, 0, func(n *sitter.Node) {
		if n.Type() == "assignment" {
			if l := n.ChildByFieldName("left"); l != nil && l.Type() == "identifier" {
				binds[s.w.text(l)] = append(binds[s.w.text(l)], n.ChildByFieldName("right"))
			}
		}
	})
	single := func(n *sitter.Node) *sitter.Node {
		if n = unparen(n); n.Type() == "identifier" && len(binds[s.w.text(n)]) == 1 {
			return unparen(binds[s.w.text(n)][0])
		}
		return n
	}
	var out *renamed
	walkAll(body, 0, func(f *sitter.Node) {
		if out != nil || f.Type() != "for_statement" {
			return
		}
		left, right := f.ChildByFieldName("left"), unparen(f.ChildByFieldName("right"))
		if left.Type() != "pattern_list" || left.NamedChildCount() != 2 || right.Type() != "call" ||
			s.w.text(right.ChildByFieldName("function")) != "zip" {
			return
		}
		args := children(right.ChildByFieldName("arguments"))
		if len(args) != 2 {
			return
		}
		target, n := s.freshImports(single(args[0]), single)
		suffixes := s.stringList(single(args[1]))
		mod, suf := s.w.text(left.NamedChild(0)), s.w.text(left.NamedChild(1))
		if target == "" || suffixes == nil || !s.renamesLoaded(f.ChildByFieldName("body"), mod, suf) {
			return
		}
		suffixes = suffixes[:min(n, len(suffixes))] // zip stops at the shorter
		text := s.w.text(body)
		out = &renamed{Target: target, Suffixes: suffixes, Rest: strings.Contains(text, "TestSuite") ||
			strings.Count(text, "addTest") != 1 || strings.Count(text, "loadTests") != 1}
	})
	return out
}

// freshImports returns the one module a list of names bound to
// import_fresh_module calls imports, and how many, or "" when the list is
// anything else (import_module returns the same module each time: its
// classes would be renamed once per suffix).
func (s *dynScan) freshImports(list *sitter.Node, single func(*sitter.Node) *sitter.Node) (string, int) {
	if list.Type() != "list" && list.Type() != "tuple" || list.NamedChildCount() == 0 {
		return "", 0
	}
	target := ""
	for _, e := range children(list) {
		c := single(e)
		if e.Type() != "identifier" || c.Type() != "call" {
			return "", 0
		}
		args := children(c.ChildByFieldName("arguments"))
		last := s.w.text(c.ChildByFieldName("function"))
		last = last[strings.LastIndexByte(last, '.')+1:]
		if last != "import_fresh_module" || len(args) == 0 {
			return "", 0
		}
		refs := s.moduleRefs(args[0], nil)
		if len(refs) != 1 || target != "" && refs[0] != target {
			return "", 0
		}
		target = refs[0]
	}
	return target, len(children(list))
}

// stringList reads a list or tuple of string literals.
func (s *dynScan) stringList(n *sitter.Node) []string {
	if n.Type() != "list" && n.Type() != "tuple" {
		return nil
	}
	var out []string
	for _, c := range children(n) {
		v, isBytes, ok := decodeString(s.w.text(c))
		if c.Type() != "string" || !ok || isBytes {
			return nil
		}
		out = append(out, v)
	}
	return out
}

// renamesLoaded checks the zip loop's body: it collects the TestCase
// classes of mod's namespace and, in a loop over classes, renames each
// (cls.__qualname__ += suf) and loads it (loadTestsFromTestCase(cls)).
func (s *dynScan) renamesLoaded(body *sitter.Node, mod, suf string) bool {
	text := s.w.text(body)
	if body == nil || !(strings.Contains(text, mod+".__dict__") || strings.Contains(text, "vars("+mod+")")) ||
		!strings.Contains(text, "issubclass(") || !strings.Contains(text, "TestCase)") {
		return false
	}
	found := false
	walkAll(body, 0, func(g *sitter.Node) {
		if found || g.Type() != "for_statement" || g.ChildByFieldName("left").Type() != "identifier" {
			return
		}
		v := s.w.text(g.ChildByFieldName("left"))
		inner := s.w.text(g.ChildByFieldName("body"))
		found = strings.Contains(inner, "loadTestsFromTestCase("+v+")")
		renames := false
		walkAll(g.ChildByFieldName("body"), 0, func(a *sitter.Node) {
			if a.Type() == "augmented_assignment" && s.w.text(a.ChildByFieldName("left")) == v+".__qualname__" &&
				s.w.text(a.ChildByFieldName("right")) == suf && strings.HasPrefix(s.w.text(a.ChildByFieldName("operator")), "+=") {
				renames = true
			}
		})
		found = found && renames
	})
	return found
}
