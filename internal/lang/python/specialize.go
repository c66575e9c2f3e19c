package python

import (
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// namer is how a class factory names the classes it makes, when it makes
// them from a class argument as CPython's importlib tests do
// (test.test_importlib.util):
//
//	def specialize_class(cls, kind, base=None, **kwargs):
//	    if base is None:
//	        base = unittest.TestCase
//	    elif not isinstance(base, type):
//	        base = base[kind]
//	    name = '{}_{}'.format(kind, cls.__name__)
//	    specialized = types.new_class(name, (cls, base))
//	    specialized.__module__ = cls.__module__
//	    ...
//	def split_frozen(cls, base=None, **kwargs):
//	    frozen = specialize_class(cls, 'Frozen', base, **kwargs)
//	    source = specialize_class(cls, 'Source', base, **kwargs)
//	    return frozen, source
//
// Each made class is named Parts[0]+kind+Parts[1]+cls.__name__+Parts[2]
// (Kind first) or with the two swapped (!KindFirst), lives in cls's
// module, and derives from cls and the base (Default when the base is
// None or not given).
type namer struct {
	Class     int      `json:"c"`            // the class parameter's index
	Base      int      `json:"b"`            // the base parameter's index, -1 for none
	Kind      int      `json:"k"`            // the kind parameter's index, -1 when Kinds are fixed
	Kinds     []string `json:"ks,omitempty"` // the kinds made, in returned order
	Parts     []string `json:"p"`            // the name's literal parts around the two fields
	KindFirst bool     `json:"f,omitempty"`
	Default   string   `json:"d,omitempty"`  // the base when None, dotted
	BaseName  string   `json:"bn,omitempty"` // the base parameter's name
}

// specCall is a module-level `(A, B) = factory(Class, base, **kw)`: the
// names it binds and its arguments, for the Linker to name the classes
// when factory is a namer.
type specCall struct {
	Names []string          `json:"n"`
	Args  []string          `json:"a"`           // positional arguments, names or None
	Kw    map[string]string `json:"k,omitempty"` // keyword arguments: names, None, or "?"
}

// params returns a function's parameter names in order ("*" and "**" for
// splats) and the index of each.
func (s *dynScan) params(d *sitter.Node) []string {
	var out []string
	ps := d.ChildByFieldName("parameters")
	for _, p := range children(ps) {
		id := p
		switch p.Type() {
		case "identifier":
		case "default_parameter", "typed_default_parameter":
			id = p.ChildByFieldName("name")
		case "typed_parameter", "list_splat_pattern", "dictionary_splat_pattern":
			if p.NamedChildCount() > 0 {
				id = p.NamedChild(0)
			}
		default:
			id = nil
		}
		if id == nil || id.Type() != "identifier" {
			out = append(out, "?")
			continue
		}
		out = append(out, s.w.text(id))
	}
	return out
}

func index(list []string, s string) int {
	for i, x := range list {
		if x == s {
			return i
		}
	}
	return -1
}

// namers reads the module's functions that name the classes they make
// (namer), the ones that make them directly first, then those that
// return a tuple of their calls or forward to another.
func (s *dynScan) namers(defs []*sitter.Node) {
	for round := 0; round < 3; round++ {
		for _, d := range defs {
			name := s.w.text(d.ChildByFieldName("name"))
			if f, ok := s.w.facts.Factories[name]; ok && f.Names == nil {
				if nm := s.namer(d); nm != nil {
					f.Names = nm
					s.w.facts.Factories[name] = f
				}
			}
		}
	}
}

func (s *dynScan) namer(d *sitter.Node) *namer {
	ps := s.params(d)
	body := d.ChildByFieldName("body")
	if body == nil {
		return nil
	}
	stmts := children(body)
	if len(stmts) > 0 && stmts[0].Type() == "expression_statement" && stmts[0].NamedChild(0).Type() == "string" {
		stmts = stmts[1:] // the docstring
	}
	if len(stmts) == 0 || stmts[len(stmts)-1].Type() != "return_statement" || stmts[len(stmts)-1].NamedChildCount() != 1 {
		return nil
	}
	ret := unparen(stmts[len(stmts)-1].NamedChild(0))
	locals := map[string]*sitter.Node{}
	for _, st := range stmts[:len(stmts)-1] {
		if st.Type() != "expression_statement" || st.NamedChildCount() != 1 || st.NamedChild(0).Type() != "assignment" {
			continue
		}
		a := st.NamedChild(0)
		if l := a.ChildByFieldName("left"); l != nil && l.Type() == "identifier" {
			locals[s.w.text(l)] = a.ChildByFieldName("right")
		}
	}
	if ret.Type() == "identifier" {
		return s.makingNamer(ps, stmts, locals, s.w.text(ret))
	}
	var calls []*sitter.Node
	if ret.Type() == "call" {
		calls = []*sitter.Node{ret}
	} else if ret.Type() == "tuple" || ret.Type() == "expression_list" {
		for _, e := range children(ret) {
			if e.Type() == "identifier" {
				e = locals[s.w.text(e)]
			}
			if e == nil || e.Type() != "call" {
				return nil
			}
			calls = append(calls, e)
		}
	}
	return s.forwarding(ps, calls, ret.Type() == "call")
}

// forwarding reads a function that returns the classes of calls to the
// module's namers, passing its own class and base parameters on.
func (s *dynScan) forwarding(ps []string, calls []*sitter.Node, whole bool) *namer {
	var out *namer
	for _, c := range calls {
		callee := s.w.text(c.ChildByFieldName("function"))
		f, ok := s.w.facts.Factories[callee]
		if !ok || f.Names == nil {
			return nil
		}
		inner := f.Names
		args := children(c.ChildByFieldName("arguments"))
		pos := map[int]string{}
		for i, a := range args {
			switch a.Type() {
			case "keyword_argument", "list_splat":
				return nil
			case "dictionary_splat":
				if i != len(args)-1 {
					return nil
				}
			default:
				pos[i] = s.w.text(a)
			}
		}
		nm := &namer{Class: index(ps, pos[inner.Class]), Base: -1, Kind: -1, Parts: inner.Parts, KindFirst: inner.KindFirst, Default: inner.Default}
		if nm.Class < 0 {
			return nil
		}
		if inner.Base >= 0 {
			if nm.Base = index(ps, pos[inner.Base]); nm.Base < 0 {
				return nil
			}
			nm.BaseName = ps[nm.Base]
		}
		switch {
		case inner.Kind < 0 && whole:
			nm.Kinds = inner.Kinds
		case inner.Kind >= 0 && !whole:
			k, _, ok := decodeString(pos[inner.Kind])
			if !ok || k == "" {
				return nil
			}
			nm.Kinds = []string{k}
		default:
			return nil
		}
		if out == nil {
			out = nm
			continue
		}
		if out.Class != nm.Class || out.Base != nm.Base || out.Default != nm.Default || strings.Join(out.Parts, "\x00") != strings.Join(nm.Parts, "\x00") || out.KindFirst != nm.KindFirst {
			return nil
		}
		out.Kinds = append(out.Kinds, nm.Kinds...)
	}
	return out
}

// makingNamer reads a function that makes one class, bound to v and
// returned: v = types.new_class(NAME, (cls, base)) (or type(NAME, bases,
// ns)) with NAME = 'lit{}lit{}lit'.format(kind, cls.__name__), and
// v.__module__ = cls.__module__. A base parameter may be None, meaning a
// default set by `if base is None: base = X`; other rebindings of it are
// allowed only where it is not a type. Anything that renames the class
// rejects the function.
func (s *dynScan) makingNamer(ps []string, stmts []*sitter.Node, locals map[string]*sitter.Node, v string) *namer {
	mk := locals[v]
	if mk == nil || mk.Type() != "call" {
		return nil
	}
	callee := s.w.resolve(s.w.text(mk.ChildByFieldName("function")))
	args := children(mk.ChildByFieldName("arguments"))
	if !((callee == "types.new_class" && len(args) == 2) || (callee == "type" && len(args) == 3)) {
		return nil
	}
	nameExpr, bases := args[0], unparen(args[1])
	if nameExpr.Type() == "identifier" {
		nameExpr = locals[s.w.text(nameExpr)]
	}
	if bases.Type() == "identifier" {
		bases = locals[s.w.text(bases)]
	}
	if nameExpr == nil || bases == nil || nameExpr.Type() != "call" || (bases.Type() != "tuple" && bases.Type() != "expression_list") {
		return nil
	}
	nm := &namer{Class: -1, Base: -1, Kind: -1}
	f := nameExpr.ChildByFieldName("function")
	fargs := children(nameExpr.ChildByFieldName("arguments"))
	if f.Type() != "attribute" || s.w.text(f.ChildByFieldName("attribute")) != "format" || len(fargs) != 2 {
		return nil
	}
	tmpl, isBytes, ok := decodeString(s.w.text(f.ChildByFieldName("object")))
	if !ok || isBytes || f.ChildByFieldName("object").Type() != "string" {
		return nil
	}
	nm.Parts = strings.Split(tmpl, "{}")
	if len(nm.Parts) != 3 || strings.ContainsAny(tmpl, "{}") && strings.Count(tmpl, "{")+strings.Count(tmpl, "}") != 4 {
		return nil
	}
	var cls string
	for i, a := range fargs {
		switch {
		case a.Type() == "identifier" && index(ps, s.w.text(a)) >= 0 && nm.Kind < 0:
			nm.Kind = index(ps, s.w.text(a))
			nm.KindFirst = i == 0
		case a.Type() == "attribute" && s.w.text(a.ChildByFieldName("attribute")) == "__name__" && index(ps, s.w.text(a.ChildByFieldName("object"))) >= 0:
			cls = s.w.text(a.ChildByFieldName("object"))
			nm.Class = index(ps, cls)
		default:
			return nil
		}
	}
	if nm.Class < 0 || nm.Kind < 0 {
		return nil
	}
	be := children(bases)
	if len(be) == 0 || len(be) > 2 || s.w.text(be[0]) != cls {
		return nil
	}
	base := ""
	if len(be) == 2 {
		if base = s.w.text(be[1]); index(ps, base) < 0 {
			return nil
		}
		nm.Base, nm.BaseName = index(ps, base), base
	}
	return s.namerBody(nm, stmts, v, cls, base)
}

// namerBody checks the rest of a making namer's body: the class keeps
// cls's module and its name, and the base's default is read.
func (s *dynScan) namerBody(nm *namer, stmts []*sitter.Node, v, cls, base string) *namer {
	module := false
	for _, st := range stmts {
		text := s.w.text(st)
		if a := st.NamedChild(0); st.Type() == "expression_statement" && a != nil && a.Type() == "assignment" && base != "" && s.w.text(a.ChildByFieldName("left")) == base {
			return nil // the base rebound outside the default's if
		}
		if strings.Contains(text, "__qualname__") || strings.Contains(text, "__name__ =") || strings.Contains(text, "globals(") {
			return nil
		}
		if strings.Join(strings.Fields(text), "") == v+".__module__="+cls+".__module__" {
			module = true
		}
		if st.Type() != "if_statement" || base == "" {
			continue
		}
		cond := strings.Join(strings.Fields(s.w.text(st.ChildByFieldName("condition"))), " ")
		cons := children(st.ChildByFieldName("consequence"))
		if cond != base+" is None" || len(cons) != 1 {
			continue
		}
		a := cons[0].NamedChild(0)
		if a == nil || a.Type() != "assignment" || s.w.text(a.ChildByFieldName("left")) != base {
			return nil
		}
		nm.Default = s.w.resolve(s.w.text(a.ChildByFieldName("right")))
		for _, alt := range children(st) {
			if alt.Type() == "elif_clause" && strings.Join(strings.Fields(s.w.text(alt.ChildByFieldName("condition"))), " ") != "not isinstance("+base+", type)" {
				return nil
			}
			if alt.Type() == "else_clause" {
				return nil
			}
		}
	}
	if !module || (base != "" && nm.Default == "") {
		return nil
	}
	return nm
}

// specAssign records `(A, B) = f(Class, ...)` at module level, outside
// loops, with f a module function or an imported name, Class a
// module-level class and the keywords not test-like, as a whyCall fact
// with its specCall.
func (s *dynScan) specAssign(a, left, right *sitter.Node, open map[string]bool) bool {
	if len(open) > 0 || (left.Type() != "pattern_list" && left.Type() != "tuple_pattern") || right.Type() != "call" {
		return false
	}
	f := right.ChildByFieldName("function")
	callee := s.w.text(f)
	head, _, _ := strings.Cut(callee, ".")
	if (f.Type() != "identifier" && f.Type() != "attribute") || !(s.w.defined[head] || s.w.facts.Imports[head] != "") {
		return false
	}
	sc := &specCall{Kw: map[string]string{}}
	for _, t := range children(left) {
		if t.Type() != "identifier" {
			return false
		}
		sc.Names = append(sc.Names, s.w.text(t))
	}
	for _, arg := range children(right.ChildByFieldName("arguments")) {
		switch arg.Type() {
		case "keyword_argument":
			k, v := s.w.text(arg.ChildByFieldName("name")), arg.ChildByFieldName("value")
			if strings.HasPrefix(k, "test") || k == "runTest" {
				return false // set on the class, it would be a test
			}
			sc.Kw[k] = "?"
			if t := v.Type(); t == "identifier" || t == "attribute" || t == "none" {
				sc.Kw[k] = s.w.text(v)
			}
		case "identifier", "attribute", "none":
			if len(sc.Kw) > 0 {
				return false
			}
			sc.Args = append(sc.Args, s.w.text(arg))
		default:
			return false
		}
	}
	if len(sc.Args) == 0 || !s.classes[sc.Args[0]] || !s.boundAt(sc.Args[0], line(a)) {
		return false
	}
	s.add(dynFact{Why: whyCall, Line: line(a), Call: callee, Spec: sc})
	return true
}

// specialize adds to m the classes its specCalls make, where the callee
// is a namer of the project that makes a fixed list of kinds, the class
// argument is a class of m and the base is None or a known class. Each is
// known by the name the module binds it to (pytest's IDs use it, and
// unittest finds the class by it) and has the name made as its
// __qualname__ (unittest's IDs use that: classFact.Qual). The call's fact is then
// resolved: it makes no dynamic record. Other calls stay dynamic.
func (l *linker) specialize(cl *classes, m *modFile) {
	for i := range m.facts.Dyn {
		f := &m.facts.Dyn[i]
		var made []classFact
		switch {
		case f.Copies != "":
			made = copiedFacts(cl, m, f)
		case f.Spec != nil:
			made = l.specClasses(cl, m, f)
		}
		if made == nil {
			continue
		}
		m.facts.Classes = append(m.facts.Classes, made...)
		if f.Copies != "" && foreignClasses(cl, cl.module(m, f.Copies)) {
			continue // its dynamic record stays for the classes not known
		}
		f.Why = whySpecialized
	}
}

// whySpecialized marks a dynFact whose classes the Linker named.
const whySpecialized = "specialized"

func (l *linker) specClasses(cl *classes, m *modFile, f *dynFact) []classFact {
	mod, name := l.function(cl, m, f.Call)
	if mod == nil {
		return nil
	}
	nm, sc := mod.facts.Factories[name].Names, f.Spec
	if nm == nil || nm.Kind >= 0 || len(nm.Kinds) != len(sc.Names) || nm.Class >= len(sc.Args) || len(nm.Parts) != 3 {
		return nil
	}
	cls := sc.Args[nm.Class]
	if ci := m.findClass(cls); ci < 0 || m.facts.Classes[ci].Outer != -1 {
		return nil
	}
	base := "None"
	if nm.Base >= 0 && nm.Base < len(sc.Args) {
		base = sc.Args[nm.Base]
	} else if v, ok := sc.Kw[nm.BaseName]; ok && nm.Base >= 0 {
		base = v
	}
	switch base {
	case "?":
		return nil
	case "None":
		base = nm.Default
	default:
		// A base that is not a class is indexed by kind: not followed.
		if _, testCase, found := cl.resolve(m, base, 0); !found && !testCase {
			return nil
		}
	}
	var out []classFact
	for i, kind := range nm.Kinds {
		made := nm.Parts[0] + cls + nm.Parts[1] + kind + nm.Parts[2]
		if nm.KindFirst {
			made = nm.Parts[0] + kind + nm.Parts[1] + cls + nm.Parts[2]
		}
		bound := sc.Names[i]
		if m.findClass(bound) >= 0 || slices.ContainsFunc(out, func(c classFact) bool { return c.Name == bound }) {
			return nil
		}
		bases := []string{cls}
		if base != "" {
			bases = append(bases, base)
		}
		c := classFact{Name: bound, Line: f.Line, Outer: -1, Bases: bases}
		if made != bound {
			c.Qual = made
		}
		out = append(out, c)
	}
	return out
}

// boundAt reports whether a module-level class name stands, at a line,
// for the class the Linker finds by that name (its first definition):
// the name is bound only by class statements, the first before the line
// and any other after it (test_importlib's test_abc defines
// MetaPathFinder twice and specializes the first in between).
func (s *dynScan) boundAt(name string, at int) bool {
	var lines []int
	for _, c := range s.w.facts.Classes {
		if c.Outer == -1 && c.Name == name {
			lines = append(lines, c.Line)
		}
	}
	return len(lines) > 0 && len(lines) == s.w.bindings[name] && lines[0] < at && (len(lines) == 1 || lines[1] > at)
}
