package python

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// loopClasses reads a module-level for loop over a known sequence that
// makes classes in the module's namespace, as CPython's test_shelve does:
//
//	for proto in range(pickle.HIGHEST_PROTOCOL + 1):
//	    bases = (TestShelveInMemBase, mapping_tests.BasicTestMappingProtocol)
//	    name = f'TestProto{proto}MemShelve'
//	    globals()[name] = type(name, bases, {'_args': {'protocol': proto}})
//	    for dbm_mod in dbm_iterator():
//	        ...
//
// Each iteration runs the body's statements in order: names bound to
// tuples of classes and to strings (f-strings of the loop variable), and
// globals()[name] = type(name, bases, {...}) with no test-like key, which
// makes a class of the module. A nested loop over what is not known is
// passed over (the module's dynamic records stand for what it makes) and
// forgets the names it binds; any other statement makes nothing known.
func (s *dynScan) loopClasses(f *sitter.Node) []classFact {
	left, right, body := f.ChildByFieldName("left"), f.ChildByFieldName("right"), f.ChildByFieldName("body")
	if left == nil || left.Type() != "identifier" || right == nil || body == nil || f.ChildByFieldName("alternative") != nil {
		return nil
	}
	elems, ok := s.w.argvalues(right, 0)
	if !ok || len(elems) > 1000 {
		return nil
	}
	v := s.w.text(left)
	var out []classFact
	for _, e := range elems {
		made, ok := s.loopBody(body, v, s.w.elemValue(e, 0))
		if !ok {
			return nil
		}
		out = append(out, made...)
	}
	return out
}

// loopBody runs one iteration of loopClasses' body, v bound to val.
func (s *dynScan) loopBody(body *sitter.Node, v string, val pyVal) ([]classFact, bool) {
	strs := map[string]string{}
	tuples := map[string][]string{}
	var out []classFact
	for _, st := range children(body) {
		switch st.Type() {
		case "assert_statement", "pass_statement":
		case "for_statement":
			for _, id := range identifiersIn(st, s.w.src) {
				delete(strs, id)
				delete(tuples, id)
			}
			if strings.Contains(s.w.text(st), "del ") {
				return nil, false
			}
		case "expression_statement":
			a := st.NamedChild(0)
			if a.Type() != "assignment" {
				return nil, false
			}
			lhs, rhs := a.ChildByFieldName("left"), unparen(a.ChildByFieldName("right"))
			switch {
			case lhs.Type() == "identifier" && (rhs.Type() == "tuple" || rhs.Type() == "expression_list"):
				bases, open := s.baseNames(children(rhs), map[string]bool{v: true}, nil)
				if open {
					return nil, false
				}
				tuples[s.w.text(lhs)] = bases
				delete(strs, s.w.text(lhs))
			case lhs.Type() == "identifier" && rhs.Type() == "string":
				str, ok := s.loopString(rhs, v, val)
				if !ok {
					return nil, false
				}
				strs[s.w.text(lhs)] = str
				delete(tuples, s.w.text(lhs))
			case lhs.Type() == "subscript" && isNamespaceCall(lhs.ChildByFieldName("value"), s.w.src):
				c, ok := s.typeCall(lhs, rhs, strs, tuples)
				if !ok {
					return nil, false
				}
				c.Line = line(st)
				out = append(out, c)
			default:
				return nil, false
			}
		default:
			return nil, false
		}
	}
	return out, true
}

// loopString evaluates a string or an f-string of the loop variable.
func (s *dynScan) loopString(n *sitter.Node, v string, val pyVal) (string, bool) {
	if isFString(s.w.text(n)) {
		out, _, ok := s.w.fString(n, v, val)
		return out.raw, ok && out.isStr()
	}
	str, isBytes, ok := decodeString(s.w.text(n))
	return str, ok && !isBytes
}

// typeCall reads globals()[name] = type(name, bases, {...}): the class it
// makes, when both names are the same known string, the bases a known
// tuple and the namespace a dict whose keys are strings not test-like.
func (s *dynScan) typeCall(lhs, rhs *sitter.Node, strs map[string]string, tuples map[string][]string) (classFact, bool) {
	key := lhs.ChildByFieldName("subscript")
	if rhs.Type() != "call" || s.w.text(rhs.ChildByFieldName("function")) != "type" || s.w.bindings["type"] != 0 || key == nil {
		return classFact{}, false
	}
	args := children(rhs.ChildByFieldName("arguments"))
	if len(args) != 3 || args[0].Type() != "identifier" || key.Type() != "identifier" || s.w.text(args[0]) != s.w.text(key) ||
		args[1].Type() != "identifier" || args[2].Type() != "dictionary" {
		return classFact{}, false
	}
	name, ok := strs[s.w.text(key)]
	bases, known := tuples[s.w.text(args[1])]
	if !ok || !known || name == "" {
		return classFact{}, false
	}
	for _, p := range children(args[2]) {
		k := p.ChildByFieldName("key")
		str, isBytes, ok := decodeString(s.w.text(k))
		if p.Type() != "pair" || k == nil || k.Type() != "string" || !ok || isBytes || strings.HasPrefix(str, "test") || str == "runTest" {
			return classFact{}, false
		}
	}
	return classFact{Name: name, Outer: -1, Bases: bases}, true
}

// addLoopClasses adds the classes loopClasses knows to the module's, when
// none is bound twice.
func (s *dynScan) addLoopClasses(f *sitter.Node) {
	made := s.loopClasses(f)
	seen := map[string]bool{}
	for _, c := range made {
		if s.classes[c.Name] || seen[c.Name] || s.w.defined[c.Name] {
			return
		}
		seen[c.Name] = true
	}
	for _, c := range made {
		s.w.facts.Classes = append(s.w.facts.Classes, c)
		s.classes[c.Name] = true
	}
}
