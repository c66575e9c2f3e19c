package python

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// loopClasses reads a module-level for loop over a known sequence that
// makes classes in the module's namespace or sets test methods on one of
// its classes, as CPython's test_shelve and test_logging do:
//
//	for proto in range(pickle.HIGHEST_PROTOCOL + 1):
//	    bases = (TestShelveInMemBase, mapping_tests.BasicTestMappingProtocol)
//	    name = f'TestProto{proto}MemShelve'
//	    globals()[name] = type(name, bases, {'_args': {'protocol': proto}})
//	    for dbm_mod in dbm_iterator():
//	        ...
//
//	for when, exp in (('S', 1), ('M', 60)):
//	    def test_compute_rollover(self, when=when, exp=exp): ...
//	    setattr(TimedRotatingFileHandlerTest, "test_compute_rollover_%s" % when, test_compute_rollover)
//
// Each iteration runs the body's statements in order: names bound to
// tuples of classes and to strings (f-strings and %s of the loop
// variables), defs, globals()[name] = type(name, bases, {...}) with no
// test-like key, which makes a class of the module, and setattr(Class,
// name, f) on a class of the module, f a def of the loop, a lambda,
// getattr of a method of a module class, or None (which hides the name).
// A nested loop over what is not known is passed over (the module's
// dynamic records stand for what it makes) and forgets the names it
// binds; any other statement makes nothing known.
func (s *dynScan) loopClasses(f *sitter.Node) ([]classFact, []loopSet) {
	left, right, body := f.ChildByFieldName("left"), f.ChildByFieldName("right"), f.ChildByFieldName("body")
	if left == nil || right == nil || body == nil || f.ChildByFieldName("alternative") != nil {
		return nil, nil
	}
	elems, ok := s.w.argvalues(right, 0)
	if !ok || len(elems) > 1000 {
		return nil, nil
	}
	var made []classFact
	var sets []loopSet
	for _, e := range elems {
		vars, ok := s.loopVars(left, e)
		if !ok {
			return nil, nil
		}
		c, m, ok := s.loopBody(body, vars)
		if !ok {
			return nil, nil
		}
		made, sets = append(made, c...), append(sets, m...)
	}
	return made, sets
}

// loopSet is a setattr of loopClasses: a test method set on (or, Hidden,
// hidden from) a class of the module.
type loopSet struct {
	class, name string
	line        int
	hidden      bool
	call        uint32 // the setattr call's start byte
}

// loopVars binds a loop's target, a name or a tuple of names, to one
// element of its sequence.
func (s *dynScan) loopVars(target *sitter.Node, e elem) (map[string]elem, bool) {
	if target.Type() == "identifier" {
		return map[string]elem{s.w.text(target): e}, true
	}
	if target.Type() != "pattern_list" && target.Type() != "tuple_pattern" || e.n == nil {
		return nil, false
	}
	saved := s.w.locals
	s.w.locals = e.env
	sub, ok := s.w.argvalues(e.n, 0)
	s.w.locals = saved
	names := children(target)
	if !ok || len(sub) != len(names) {
		return nil, false
	}
	vars := map[string]elem{}
	for i, n := range names {
		if n.Type() != "identifier" {
			return nil, false
		}
		vars[s.w.text(n)] = sub[i]
	}
	return vars, true
}

// loopBody runs one iteration of loopClasses' body with the loop's
// variables bound.
func (s *dynScan) loopBody(body *sitter.Node, vars map[string]elem) ([]classFact, []loopSet, bool) {
	strs := map[string]string{}
	tuples := map[string][]string{}
	defs := map[string]bool{}
	open := map[string]bool{}
	for v := range vars {
		open[v] = true
	}
	var made []classFact
	var sets []loopSet
	for _, st := range children(body) {
		switch st.Type() {
		case "assert_statement", "pass_statement":
		case "function_definition":
			defs[s.w.text(st.ChildByFieldName("name"))] = true
		case "for_statement":
			if strings.Contains(s.w.text(st), "del ") {
				return nil, nil, false
			}
			for _, id := range identifiersIn(st, s.w.src) {
				delete(strs, id)
				delete(tuples, id)
				delete(defs, id)
			}
		case "expression_statement":
			a := st.NamedChild(0)
			if a.Type() == "call" {
				set, ok := s.loopSetattr(a, vars, defs)
				if !ok {
					return nil, nil, false
				}
				set.line, set.call = line(st), a.StartByte()
				sets = append(sets, set)
				continue
			}
			if a.Type() != "assignment" {
				return nil, nil, false
			}
			lhs, rhs := a.ChildByFieldName("left"), unparen(a.ChildByFieldName("right"))
			switch {
			case lhs.Type() == "identifier" && (rhs.Type() == "tuple" || rhs.Type() == "expression_list"):
				bases, isOpen := s.baseNames(children(rhs), open, nil)
				if isOpen {
					return nil, nil, false
				}
				tuples[s.w.text(lhs)] = bases
				delete(strs, s.w.text(lhs))
			case lhs.Type() == "identifier":
				str, ok := s.loopString(rhs, vars)
				if !ok {
					return nil, nil, false
				}
				strs[s.w.text(lhs)] = str
				delete(tuples, s.w.text(lhs))
			case lhs.Type() == "subscript" && isNamespaceCall(lhs.ChildByFieldName("value"), s.w.src):
				c, ok := s.typeCall(lhs, rhs, strs, tuples)
				if !ok {
					return nil, nil, false
				}
				c.Line = line(st)
				made = append(made, c)
			default:
				return nil, nil, false
			}
		default:
			return nil, nil, false
		}
	}
	return made, sets, true
}

// loopString evaluates a str: a literal, an f-string, a loop variable or
// a module-level name, or "...%s..." % of those.
func (s *dynScan) loopString(n *sitter.Node, vars map[string]elem) (string, bool) {
	saved := s.w.locals
	s.w.locals = vars
	defer func() { s.w.locals = saved }()
	n = unparen(n)
	if n.Type() == "binary_operator" && s.w.text(n.ChildByFieldName("operator")) == "%" {
		format := s.w.value(n.ChildByFieldName("left"), 0)
		right := unparen(n.ChildByFieldName("right"))
		args := []*sitter.Node{right}
		if right.Type() == "tuple" {
			args = children(right)
		}
		var vals []metaValue
		for _, a := range args {
			v, ok := s.w.strOf(s.w.value(a, 0))
			if !ok {
				return "", false
			}
			vals = append(vals, metaValue{kind: 's', str: v.raw})
		}
		out, ok := percentS(format.raw, vals)
		return out, ok && format.isStr()
	}
	v := s.w.value(n, 0)
	return v.raw, v.isStr()
}

// loopSetattr reads setattr(Class, name, value) on a class of the module
// bound once: value a def of the loop, a lambda or getattr of a method
// of a module class sets a test method; None hides the name.
func (s *dynScan) loopSetattr(call *sitter.Node, vars map[string]elem, defs map[string]bool) (loopSet, bool) {
	args := children(call.ChildByFieldName("arguments"))
	if s.w.text(call.ChildByFieldName("function")) != "setattr" || s.w.bindings["setattr"] != 0 || len(args) != 3 ||
		args[0].Type() != "identifier" || !s.classes[s.w.text(args[0])] || s.w.bindings[s.w.text(args[0])] != 1 {
		return loopSet{}, false
	}
	name, ok := s.loopString(args[1], vars)
	if !ok || name == "" {
		return loopSet{}, false
	}
	set := loopSet{class: s.w.text(args[0]), name: name}
	switch v := unparen(args[2]); {
	case v.Type() == "none":
		set.hidden = true
	case v.Type() == "lambda", v.Type() == "identifier" && defs[s.w.text(v)]:
	case v.Type() == "call" && s.w.text(v.ChildByFieldName("function")) == "getattr":
		g := children(v.ChildByFieldName("arguments"))
		if len(g) != 2 || g[0].Type() != "identifier" {
			return loopSet{}, false
		}
		attr, ok := s.loopString(g[1], vars)
		if !ok || !s.hasMethod(s.w.text(g[0]), attr) {
			return loopSet{}, false
		}
	default:
		return loopSet{}, false
	}
	return set, true
}

// hasMethod reports whether a module-level class bound once defines a
// method of that name in its own body.
func (s *dynScan) hasMethod(class, name string) bool {
	if s.w.bindings[class] != 1 {
		return false
	}
	for _, c := range s.w.facts.Classes {
		if c.Outer == -1 && c.Name == class {
			return slices.ContainsFunc(c.Methods, func(f fnFact) bool { return f.Name == name })
		}
	}
	return false
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

// addLoopClasses adds what loopClasses knows to the module's classes, when
// no class it makes is bound twice.
func (s *dynScan) addLoopClasses(f *sitter.Node) {
	made, sets := s.loopClasses(f)
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
	for _, set := range sets {
		s.handled[set.call] = true // named here: no dynamic record for it
		for i := range s.w.facts.Classes {
			if c := &s.w.facts.Classes[i]; c.Outer == -1 && c.Name == set.class {
				c.Methods = slices.DeleteFunc(c.Methods, func(f fnFact) bool { return f.Name == set.name })
				c.Hidden = slices.DeleteFunc(c.Hidden, func(n string) bool { return n == set.name })
				if set.hidden {
					c.Hidden = append(c.Hidden, set.name)
				} else {
					c.Methods = append(c.Methods, fnFact{Name: set.name, Line: set.line})
				}
			}
		}
	}
}
