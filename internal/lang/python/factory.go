package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// localFactory reads a module-level `A, B = f(...)` where f is a module
// function whose body only defines classes and returns them, as CPython's
// test_abc does:
//
//	def test_factory(abc_ABCMeta, abc_get_cache_token):
//	    class TestLegacyAPI(unittest.TestCase):
//	        ...
//	    class TestABC(unittest.TestCase):
//	        ...
//	    return TestLegacyAPI, TestABC
//
//	TestLegacyAPI_Py, TestABC_Py = test_factory(abc.ABCMeta, abc.get_cache_token)
//
// Each bound name is a class of the module with the local class's body;
// unittest names it by its __qualname__ (test_factory.<locals>.TestABC),
// pytest and runs by the name bound. It reports whether it took the
// statement; a body doing anything else, a base the function binds, or a
// name bound twice leave it to the call's dynamic record.
func (s *dynScan) localFactory(a, left, right *sitter.Node, open map[string]bool) bool {
	right = unparen(right)
	if len(open) > 0 || (left.Type() != "pattern_list" && left.Type() != "tuple_pattern") || right.Type() != "call" ||
		right.ChildByFieldName("function").Type() != "identifier" {
		return false
	}
	fname := s.w.text(right.ChildByFieldName("function"))
	var def *sitter.Node
	for _, d := range s.defs {
		if s.w.text(d.ChildByFieldName("name")) == fname {
			def = d
		}
	}
	if def == nil || s.w.bindings[fname] != 1 {
		return false
	}
	locals := map[string]*sitter.Node{} // class name -> its statement
	var returned []string
	for i, st := range children(def.ChildByFieldName("body")) {
		switch d := definition(st); {
		case d.Type() == "class_definition":
			locals[s.w.text(d.ChildByFieldName("name"))] = st
		case st.Type() == "return_statement" && st.NamedChildCount() == 1:
			for _, r := range children(unparen(st.NamedChild(0))) {
				returned = append(returned, s.w.text(r))
			}
		case i == 0 && st.Type() == "expression_statement" && st.NamedChild(0).Type() == "string":
		default:
			return false
		}
	}
	names := children(left)
	if len(returned) != len(names) {
		return false
	}
	params := map[string]bool{}
	for _, p := range s.params(def) {
		params[strings.TrimLeft(p, "*")] = true
	}
	var made []classFact
	for i, n := range names {
		st, ok := locals[returned[i]]
		if !ok || n.Type() != "identifier" || s.classes[s.w.text(n)] || s.w.bindings[s.w.text(n)] != 0 {
			return false
		}
		c, ok := s.localClass(st, params, locals)
		if !ok {
			return false
		}
		c.Qual, c.Name, c.Line = fname+".<locals>."+c.Name, s.w.text(n), line(a)
		made = append(made, c)
	}
	for _, c := range made {
		s.w.facts.Classes = append(s.w.facts.Classes, c)
		s.classes[c.Name] = true
	}
	return true
}

// localClass reads a class statement of a function body as the walker
// reads a module's (its nested classes are not kept); ok is false when a
// base is a name the function binds.
func (s *dynScan) localClass(st *sitter.Node, params map[string]bool, locals map[string]*sitter.Node) (classFact, bool) {
	n := len(s.w.facts.Classes)
	s.w.class(st, definition(st), -1, 0)
	if len(s.w.facts.Classes) == n {
		return classFact{}, false
	}
	c := s.w.facts.Classes[n]
	s.w.facts.Classes = s.w.facts.Classes[:n]
	for _, b := range c.Bases {
		head, _, _ := strings.Cut(b, ".")
		if params[head] || locals[head] != nil {
			return classFact{}, false
		}
	}
	return c, true
}
