package python

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// copiedClasses reads a module function that puts in its module a
// subclass of every TestCase class of another module, under the same
// name, as CPython's test_xml_etree_c does:
//
//	def install_tests():
//	    from test import test_xml_etree
//	    for name, base in vars(test_xml_etree).items():
//	        if isinstance(base, type) and issubclass(base, unittest.TestCase):
//	            class Temp(base):
//	                pass
//	            Temp.__name__ = Temp.__qualname__ = name
//	            Temp.__module__ = __name__
//	            globals()[name] = Temp
//
// It returns the other module's dotted name, "" for any other body.
func (s *dynScan) copiedClasses(d *sitter.Node) string {
	if ps := d.ChildByFieldName("parameters"); ps == nil || ps.NamedChildCount() != 0 {
		return ""
	}
	mods := map[string]string{} // local name -> module, from the function's imports
	var loop *sitter.Node
	for i, st := range children(d.ChildByFieldName("body")) {
		switch st.Type() {
		case "import_from_statement", "import_statement":
			s.localImports(st, mods)
		case "for_statement":
			if loop != nil {
				return ""
			}
			loop = st
		case "expression_statement":
			if i != 0 || st.NamedChild(0).Type() != "string" {
				return ""
			}
		default:
			return ""
		}
	}
	if loop == nil || loop.ChildByFieldName("alternative") != nil {
		return ""
	}
	left, right := loop.ChildByFieldName("left"), unparen(loop.ChildByFieldName("right"))
	if left.Type() != "pattern_list" || left.NamedChildCount() != 2 {
		return ""
	}
	name, base := s.w.text(left.NamedChild(0)), s.w.text(left.NamedChild(1))
	module := ""
	switch t := s.w.text(right); {
	case strings.HasPrefix(t, "vars(") && strings.HasSuffix(t, ").items()"):
		module = mods[strings.TrimSuffix(strings.TrimPrefix(t, "vars("), ").items()")]
	case strings.HasSuffix(t, ".__dict__.items()"):
		module = mods[strings.TrimSuffix(t, ".__dict__.items()")]
	}
	body := children(loop.ChildByFieldName("body"))
	if module == "" || len(body) != 1 || body[0].Type() != "if_statement" || body[0].ChildByFieldName("alternative") != nil {
		return ""
	}
	cond := s.w.text(body[0].ChildByFieldName("condition"))
	if !strings.Contains(cond, "issubclass("+base+",") || !strings.Contains(cond, "TestCase)") || !s.installs(body[0].ChildByFieldName("consequence"), name, base) {
		return ""
	}
	return module
}

// localImports records what a function's import statements bind.
func (s *dynScan) localImports(st *sitter.Node, mods map[string]string) {
	from := ""
	if m := st.ChildByFieldName("module_name"); m != nil && st.Type() == "import_from_statement" {
		from = s.w.text(m) + "."
	}
	for _, c := range children(st) {
		if c == st.ChildByFieldName("module_name") {
			continue
		}
		switch c.Type() {
		case "dotted_name":
			mods[s.w.text(c)] = from + s.w.text(c)
		case "aliased_import":
			mods[s.w.text(c.ChildByFieldName("alias"))] = from + s.w.text(c.ChildByFieldName("name"))
		}
	}
}

// installs checks the guarded block: a subclass of base with an empty
// body, named name (__qualname__ set, so unittest's IDs use it) in this
// module (__module__ = __name__), bound by globals()[name]; asserts and
// __name__ may be set too, nothing else.
func (s *dynScan) installs(block *sitter.Node, name, base string) bool {
	cls, qual, module, bound := "", false, false, false
	for _, st := range children(block) {
		switch st.Type() {
		case "class_definition":
			sup := st.ChildByFieldName("superclasses")
			if cls != "" || sup == nil || sup.NamedChildCount() != 1 || s.w.text(sup.NamedChild(0)) != base {
				return false
			}
			for _, b := range children(st.ChildByFieldName("body")) {
				if b.Type() != "pass_statement" && (b.Type() != "expression_statement" || b.NamedChild(0).Type() != "string") {
					return false
				}
			}
			cls = s.w.text(st.ChildByFieldName("name"))
		case "assert_statement":
		case "expression_statement":
			a := st.NamedChild(0)
			if a.Type() != "assignment" || cls == "" {
				return false
			}
			var lefts []string
			for ; a != nil && a.Type() == "assignment"; a = a.ChildByFieldName("right") {
				lefts = append(lefts, s.w.text(a.ChildByFieldName("left")))
			}
			v := ""
			if a != nil {
				v = s.w.text(a)
			}
			for _, l := range lefts {
				switch {
				case (l == cls+".__qualname__" || l == cls+".__name__") && v == name:
					qual = qual || l == cls+".__qualname__"
				case l == cls+".__module__" && v == "__name__":
					module = true
				case l == "globals()["+name+"]" && v == cls:
					bound = true
				default:
					return false
				}
			}
		default:
			return false
		}
	}
	return qual && module && bound
}

// copiedFacts makes the classes a Copies fact puts in m: one per TestCase
// class in the other module's namespace (its own and those it imports
// from the project), named as there and derived from it. None when that
// module is not the project's or m already binds one of the names (the
// function asserts it does not).
func copiedFacts(cl *classes, m *modFile, f *dynFact) []classFact {
	tm := cl.module(m, f.Copies)
	if tm == nil || !inProject(tm) || tm == m {
		return nil
	}
	var out []classFact
	add := func(name string, ref classRef) bool {
		if !cl.info(ref, 0).testCase {
			return true
		}
		if m.findClass(name) >= 0 || slices.ContainsFunc(out, func(c classFact) bool { return c.Name == name }) {
			return false
		}
		out = append(out, classFact{Name: name, Line: f.Line, Outer: -1, Bases: []string{f.Copies + "." + name}})
		return true
	}
	for i, c := range tm.facts.Classes {
		if c.Outer == -1 && !add(c.Name, classRef{tm, i}) {
			return nil
		}
	}
	for _, imp := range importedClasses(cl, tm) {
		if !add(imp.local, imp.ref) {
			return nil
		}
	}
	return out
}

// foreignClasses reports whether a module imports a class-like name
// (CamelCase) from outside the project: a TestCase class there would be
// in the module's namespace, with tests the listing cannot name, so a
// hook or function that takes every TestCase class of the module keeps
// its dynamic record. unittest's own TestCase classes have no tests.
func foreignClasses(cl *classes, tm *modFile) bool {
	if tm == nil {
		return true
	}
	for local, full := range tm.facts.Imports {
		if !isClassName(local) || knownTestCase[full] {
			continue
		}
		if _, _, found := cl.resolve(tm, local, 0); !found {
			return true
		}
	}
	return false
}
