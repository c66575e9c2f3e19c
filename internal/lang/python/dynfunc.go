package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// loaderCalls are the calls whose first argument names a module whose
// tests (or doctests) a load_tests hook adds.
var loaderCalls = map[string]bool{"DocTestSuite": true, "loadTestsFromModule": true, "import_fresh_module": true,
	"import_module": true, "__import__": true, "discover": true, "loadTestsFromName": true, "loadTestsFromNames": true}

// loadTestsDef records a module-level def load_tests and the modules it
// loads tests from. A hook that only calls test.support's
// load_package_tests is a package's plain discovery and is not recorded.
func (s *dynScan) loadTestsDef(d *sitter.Node) {
	body := d.ChildByFieldName("body")
	if body == nil {
		return
	}
	text := s.w.text(body)
	if strings.Contains(text, "load_package_tests") && !strings.Contains(text, "addTest") {
		return
	}
	loops := map[string][]*sitter.Node{}
	walkAll(body, 0, func(n *sitter.Node) {
		if n.Type() == "for_statement" || n.Type() == "for_in_clause" {
			left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			if left != nil && right != nil && left.Type() == "identifier" {
				if r := unparen(right); r.Type() == "tuple" || r.Type() == "list" || r.Type() == "expression_list" {
					loops[s.w.text(left)] = children(r)
				}
			}
		}
	})
	f := dynFact{Why: whyLoadTests, Line: line(d)}
	local := map[string]string{} // modules the hook imports itself
	walkAll(body, 0, func(n *sitter.Node) {
		if n.Type() == "import_from_statement" || n.Type() == "import_statement" {
			s.localImports(n, local)
		}
	})
	walkAll(body, 0, func(n *sitter.Node) {
		if n.Type() != "call" {
			return
		}
		callee := s.w.text(n.ChildByFieldName("function"))
		args := children(n.ChildByFieldName("arguments"))
		last := callee[strings.LastIndexByte(callee, '.')+1:]
		if last == "DocTestSuite" {
			if mod, ok := s.docSuiteModule(args, local); ok {
				f.Docs = appendUnique(f.Docs, mod)
			}
		}
		if len(args) > 0 && args[0].Type() == "identifier" && local[s.w.text(args[0])] != "" && loaderCalls[last] {
			f.Targets = append(f.Targets, local[s.w.text(args[0])])
			return
		}
		switch parts := strings.Split(callee, "."); {
		case loaderCalls[last] && len(args) > 0 && args[0].Type() != "keyword_argument":
			f.Targets = append(f.Targets, s.moduleRefs(args[0], loops)...)
		case len(parts) >= 3 && s.w.facts.Imports[parts[0]] != "" && (last == "suite" || last == "test_suite" || last == "load_tests"):
			// unittest.test.suite(): a package's own suite function.
			f.Targets = append(f.Targets, s.w.resolve(strings.Join(parts[:len(parts)-1], ".")))
		}
	})
	if len(f.Targets) == 0 {
		f.Only = s.exactSuite(d)
	} else {
		f.Renamed = s.renamedLoads(body)
	}
	s.add(f)
}

// walkAll calls yield for every node under n, n included.
func walkAll(n *sitter.Node, depth int, yield func(*sitter.Node)) {
	if n == nil || depth > 80 {
		return
	}
	yield(n)
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		walkAll(n.NamedChild(i), depth+1, yield)
	}
}

// moduleRefs returns the dotted names of the modules an expression
// stands for: an imported module, a string, a module-level name bound to
// a string or to import_module('name'), import_fresh_module('name'), a
// loop variable over such expressions; x.load_tests stands for x.
func (s *dynScan) moduleRefs(n *sitter.Node, loops map[string][]*sitter.Node) []string {
	n = unparen(n)
	switch n.Type() {
	case "string":
		if v, _, ok := decodeString(s.w.text(n)); ok && v != "" && !strings.ContainsAny(v, "/\\ ") {
			return []string{v}
		}
	case "identifier":
		name := s.w.text(n)
		if elems, ok := loops[name]; ok {
			var out []string
			for _, e := range elems {
				out = append(out, s.moduleRefs(e, nil)...)
			}
			return out
		}
		if v, ok := s.strs[name]; ok {
			return []string{v}
		}
		if v := s.w.facts.Imports[name]; v != "" {
			return []string{v}
		}
	case "attribute":
		if s.w.text(n.ChildByFieldName("attribute")) == "load_tests" {
			return s.moduleRefs(n.ChildByFieldName("object"), loops)
		}
		name := s.w.text(n)
		if head, _, _ := strings.Cut(name, "."); s.w.facts.Imports[head] != "" {
			return []string{s.w.resolve(name)}
		}
	case "call":
		if m := s.importCall(n); m != "" {
			return []string{m}
		}
	case "tuple", "list", "expression_list":
		var out []string
		for _, e := range children(n) {
			out = append(out, s.moduleRefs(e, loops)...)
		}
		return out
	}
	return nil
}

// importCall returns the module a call of import_module,
// import_fresh_module or __import__ with a string first argument imports.
func (s *dynScan) importCall(c *sitter.Node) string {
	callee := s.w.text(c.ChildByFieldName("function"))
	last := callee[strings.LastIndexByte(callee, '.')+1:]
	args := children(c.ChildByFieldName("arguments"))
	if (last != "import_module" && last != "import_fresh_module" && last != "__import__") || len(args) == 0 || args[0].Type() != "string" {
		return ""
	}
	v, _, ok := decodeString(s.w.text(args[0]))
	if !ok || strings.ContainsAny(v, "/\\ ") {
		return ""
	}
	return v
}

// function analyses a module-level function other than load_tests: a
// class factory makes classes (class statements, type(), types.new_class)
// or calls another factory of the module; a mutator sets test attributes
// on its first parameter (a class decorator that adds methods).
func (s *dynScan) function(name string, d *sitter.Node) {
	open := map[string]bool{}
	first := ""
	if ps := d.ChildByFieldName("parameters"); ps != nil {
		for _, p := range children(ps) {
			id := p
			if p.Type() != "identifier" {
				id = p.ChildByFieldName("name")
				if id == nil && p.NamedChildCount() > 0 {
					id = p.NamedChild(0)
				}
			}
			if id != nil && id.Type() == "identifier" {
				if first == "" {
					first = s.w.text(id)
				}
				open[s.w.text(id)] = true
			}
		}
	}
	body := d.ChildByFieldName("body")
	if body == nil {
		return
	}
	local := map[string][]*sitter.Node{}
	walkAll(body, 0, func(n *sitter.Node) {
		switch n.Type() {
		case "for_statement", "for_in_clause":
			if left := n.ChildByFieldName("left"); left != nil {
				identifiers(left, s.w.src, open)
			}
		case "assignment":
			left, right := n.ChildByFieldName("left"), n.ChildByFieldName("right")
			if left != nil && right != nil && left.Type() == "identifier" {
				if r := unparen(right); r.Type() == "tuple" || r.Type() == "expression_list" {
					local[s.w.text(left)] = children(r)
				} else {
					// A local bound to anything else (base =
					// unittest.TestCase) is a base not known here.
					open[s.w.text(left)] = true
				}
			}
		}
	})
	mutator := false
	var hides []string
	walkAll(body, 0, func(n *sitter.Node) {
		switch n.Type() {
		case "class_definition":
			var elems []*sitter.Node
			if sup := n.ChildByFieldName("superclasses"); sup != nil {
				for _, a := range children(sup) {
					if a.Type() != "keyword_argument" {
						elems = append(elems, a)
					}
				}
			}
			b, o := s.baseNames(elems, open, local)
			s.make(name, b, o)
		case "call":
			f := n.ChildByFieldName("function")
			callee := s.w.text(f)
			args := children(n.ChildByFieldName("arguments"))
			switch {
			case (callee == "type" && len(args) == 3) || (s.w.resolve(callee) == "types.new_class" && len(args) >= 2):
				b, o := s.baseNames(args[1:2], open, local)
				s.make(name, b, o)
			case callee == "setattr" && len(args) >= 2 && first != "" && s.w.text(args[0]) == first:
				mutator = true
				if v := s.w.value(args[1], 0); len(args) == 3 && v.isStr() && args[2].Type() == "none" {
					hides = append(hides, v.raw)
				}
			case f != nil && f.Type() == "identifier" && s.w.defined[callee] && callee != name:
				s.edges[name] = append(s.edges[name], callee)
			}
		case "assignment":
			if left := n.ChildByFieldName("left"); left != nil && left.Type() == "attribute" && first != "" {
				obj := left.ChildByFieldName("object")
				if attr := s.w.text(left.ChildByFieldName("attribute")); obj != nil && s.w.text(obj) == first && strings.HasPrefix(attr, "test") {
					mutator = true
					if r := n.ChildByFieldName("right"); r != nil && r.Type() == "none" {
						hides = append(hides, attr)
					}
				}
			}
		}
	})
	if mutator {
		s.w.facts.Mutators = append(s.w.facts.Mutators, name)
		if strings.Contains(s.w.text(body), "__dict__") {
			if s.w.facts.MutSrc == nil {
				s.w.facts.MutSrc = map[string]string{}
			}
			s.w.facts.MutSrc[name] = s.w.text(d)
		}
		if len(hides) > 0 {
			if s.w.facts.MutHides == nil {
				s.w.facts.MutHides = map[string][]string{}
			}
			s.w.facts.MutHides[name] = hides
		}
	}
}

// make adds a class with these bases to function fn's maker.
func (s *dynScan) make(fn string, bases []string, open bool) {
	m := s.makers[fn]
	if m == nil {
		m = &maker{}
		s.makers[fn] = m
	}
	m.Bases = appendUnique(m.Bases, bases...)
	m.Open = m.Open || open
}

// closeMakers makes every function that calls a factory of the module a
// factory too, and stores the factories in the facts.
func (s *dynScan) closeMakers() {
	for changed, round := true, 0; changed && round < 20; round++ {
		changed = false
		for fn, callees := range s.edges {
			for _, c := range callees {
				src := s.makers[c]
				if src == nil {
					continue
				}
				before := s.makers[fn]
				n0, o0 := 0, false
				if before != nil {
					n0, o0 = len(before.Bases), before.Open
				}
				s.make(fn, src.Bases, src.Open)
				if after := s.makers[fn]; before == nil || len(after.Bases) != n0 || after.Open != o0 {
					changed = true
				}
			}
		}
	}
	if len(s.makers) == 0 {
		return
	}
	s.w.facts.Factories = map[string]maker{}
	for fn, m := range s.makers {
		s.w.facts.Factories[fn] = *m
	}
}

// docSuiteModule reads the module a DocTestSuite call takes its
// docstrings from: none given (or __name__) is the calling module, the
// hook's own (""); a string, an imported module or one the hook imports
// itself is that module. ok is false for anything else, and for a
// test_finder= of its own, which may find other tests.
func (s *dynScan) docSuiteModule(args []*sitter.Node, local map[string]string) (string, bool) {
	var mod *sitter.Node
	for _, a := range args {
		switch {
		case a.Type() == "keyword_argument" && s.w.text(a.ChildByFieldName("name")) == "module":
			mod = a.ChildByFieldName("value")
		case a.Type() == "keyword_argument":
			if s.w.text(a.ChildByFieldName("name")) == "test_finder" {
				return "", false
			}
		case mod != nil || a.Type() == "list_splat" || a.Type() == "dictionary_splat":
			return "", false
		default:
			mod = a
		}
	}
	if mod == nil || s.w.text(mod) == "__name__" {
		return "", true
	}
	if m := local[s.w.text(mod)]; m != "" && mod.Type() == "identifier" {
		return m, true
	}
	if refs := s.moduleRefs(mod, nil); len(refs) == 1 {
		return refs[0], true
	}
	return "", false
}
