package python

import (
	"bytes"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"
)

// Why values of a dynFact: what makes tests at run time.
const (
	whyLoadTests = "load_tests" // a load_tests hook (defined, assigned or imported)
	whyType      = "type()"     // type(name, bases, ns) or types.new_class
	whyLoop      = "class in loop"
	whyGlobals   = "globals()" // names set in the module's namespace at run time
	whySetattr   = "setattr"   // methods added to a class from outside its body
	whyLocals    = "locals()"  // a class body that sets names through locals()/vars()
	whyCall      = "call"      // a module-level call the linker may find to be a class factory or metaclass
	whyDecorator = "decorator" // a class decorator the linker may find to add methods
	whyMeta      = "metaclass" // metaclass= on a class statement
)

// dynFact is one place where a module makes tests at run time: the
// Linker turns those it confirms into dynamic records.
type dynFact struct {
	Why  string `json:"w"`
	Line int    `json:"l"`
	// Class is the module-level class the tests land in; "" for the module.
	Class string `json:"c,omitempty"`
	// Bases are the base class expressions of a class made at run time;
	// Open says some base is not known statically (a parameter, a loop
	// variable) and may be a TestCase. The linker requires one of the two.
	Bases []string `json:"b,omitempty"`
	Open  bool     `json:"o,omitempty"`
	// Call is the callee of a whyCall, whyDecorator or whyMeta fact.
	Call string `json:"f,omitempty"`
	// Targets are the modules, dotted as written, whose tests a load_tests
	// hook adds besides its own module's.
	Targets []string `json:"t,omitempty"`
	// Only are the module's classes a load_tests hook's suite holds, when
	// it holds nothing else (loadsuite.go): the module's other test
	// classes are not run.
	Only []string `json:"only,omitempty"`
	// Copies is the module whose TestCase classes a module function
	// called here copies into this module under their names (copies.go).
	Copies string `json:"cp,omitempty"`
	// Docs are the modules whose docstrings a load_tests hook adds
	// through DocTestSuite, dotted as written ("" for its own module).
	Docs []string `json:"ds,omitempty"`
	// Renamed is a load_tests hook's loop that loads a module's classes
	// under names with suffixes (loadsuite.go).
	Renamed *renamed `json:"rn,omitempty"`
	// Spec is a call that binds the classes it makes to module names
	// (specialize.go): the Linker names them when the callee is a namer.
	Spec *specCall `json:"sp,omitempty"`
}

// maker is what a module-level function makes: the bases of the classes
// it creates (itself or through the module's other functions).
type maker struct {
	Bases []string `json:"b,omitempty"`
	Open  bool     `json:"o,omitempty"`
	// Names says how the classes are named, when that is known.
	Names *namer `json:"n,omitempty"`
}

// dynScan finds run-time test creation in one module. It runs after the
// module walk, so that defined names and imports are known.
type dynScan struct {
	w       *walker
	tuples  map[string][]*sitter.Node // module-level NAME = (a, b): bases variables
	strs    map[string]string         // module-level NAME = 'text' or import_module('text')
	classes map[string]bool           // module-level class names
	calls   map[string]bool           // callees already recorded
	makers  map[string]*maker
	edges   map[string][]string  // function -> module functions it calls
	defs    []*sitter.Node       // module-level functions, for namers
	metas   map[string]*metaFact // module-level metaclasses whose additions are known
	handled map[uint32]bool      // setattr calls whose effect loopClasses named, by start byte
}

// dynamics scans the module level for the places that make tests at run
// time and records them, with the module's class factories and method
// adding decorators, in the facts.
func (w *walker) dynamics(roots []*sitter.Node) {
	s := &dynScan{w: w, tuples: map[string][]*sitter.Node{}, strs: map[string]string{}, classes: map[string]bool{},
		calls: map[string]bool{}, makers: map[string]*maker{}, edges: map[string][]string{}, metas: map[string]*metaFact{},
		handled: map[uint32]bool{}}
	for _, c := range w.facts.Classes {
		if c.Outer == -1 {
			s.classes[c.Name] = true
		}
	}
	s.metaclasses(roots)
	for _, r := range roots {
		s.block(r, map[string]bool{}, false, 0)
	}
	s.closeMakers()
	s.namers(s.defs)
}

// block scans a block of module-level statements; open are the names
// bound by enclosing loops, inLoop whether a loop encloses the block.
func (s *dynScan) block(n *sitter.Node, open map[string]bool, inLoop bool, depth int) {
	if depth > 12 {
		return
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "if_statement":
			if cond := c.ChildByFieldName("condition"); cond != nil && isMainCheck(cond.Content(s.w.src)) {
				continue
			}
			s.expressions(c.ChildByFieldName("condition"), open)
			s.block(c, open, inLoop, depth+1)
		case "try_statement", "with_statement", "elif_clause", "else_clause", "except_clause",
			"finally_clause", "block", "except_group_clause", "with_clause", "with_item":
			s.block(c, open, inLoop, depth+1)
		case "for_statement", "while_statement":
			if c.Type() == "for_statement" && !inLoop {
				s.addLoopClasses(c)
			}
			inner := copyOpen(open)
			if left := c.ChildByFieldName("left"); left != nil {
				identifiers(left, s.w.src, inner)
			}
			s.expressions(c.ChildByFieldName("right"), open)
			s.expressions(c.ChildByFieldName("condition"), open)
			s.block(c, inner, true, depth+1)
		case "decorated_definition", "function_definition", "class_definition":
			s.definition(c, open, inLoop)
		case "import_from_statement":
			s.importLoadTests(c)
		case "expression_statement":
			s.statement(c, open)
		}
	}
}

func copyOpen(m map[string]bool) map[string]bool {
	out := make(map[string]bool, len(m))
	for k := range m {
		out[k] = true
	}
	return out
}

// identifiers adds the identifiers of a binding target to set.
func identifiers(n *sitter.Node, src []byte, set map[string]bool) {
	if n.Type() == "identifier" {
		set[n.Content(src)] = true
		return
	}
	if n.Type() == "attribute" || n.Type() == "subscript" {
		return
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		identifiers(n.NamedChild(i), src, set)
	}
}

func (s *dynScan) add(f dynFact) {
	s.w.facts.Dyn = append(s.w.facts.Dyn, f)
}

// definition handles a module-level def or class.
func (s *dynScan) definition(n *sitter.Node, open map[string]bool, inLoop bool) {
	d := definition(n)
	if d == nil {
		return
	}
	name := s.w.text(d.ChildByFieldName("name"))
	if d.Type() == "function_definition" {
		if name == "load_tests" && !inLoop {
			s.loadTestsDef(d)
			return
		}
		s.function(name, d)
		s.defs = append(s.defs, d)
		return
	}
	if inLoop {
		bases, op := s.classBases(d, open)
		s.add(dynFact{Why: whyLoop, Line: line(d), Bases: bases, Open: op})
	}
	if sup := d.ChildByFieldName("superclasses"); sup != nil {
		for _, a := range children(sup) {
			if a.Type() == "keyword_argument" && s.w.text(a.ChildByFieldName("name")) == "metaclass" &&
				(inLoop || !s.metaKeyword(d, name, s.w.text(a.ChildByFieldName("value")))) {
				s.add(dynFact{Why: whyMeta, Line: line(d), Class: name, Call: s.w.text(a.ChildByFieldName("value"))})
			}
		}
	}
	for _, e := range decorators(n) {
		callee := e
		if e.Type() == "call" {
			callee = e.ChildByFieldName("function")
		}
		if t := callee.Type(); t == "identifier" || t == "attribute" {
			s.add(dynFact{Why: whyDecorator, Line: line(d), Class: name, Call: s.w.text(callee)})
		}
	}
	if body := d.ChildByFieldName("body"); body != nil && mayCallLocals(body, s.w.src) && usesLocals(body, s.w.src, s.w.localsLoops, 0) {
		s.add(dynFact{Why: whyLocals, Line: line(d), Class: name})
	}
}

// mayCallLocals reports whether a node's text names locals or vars at
// all: usesLocals walks every node of a class body through cgo, this
// reads its bytes.
func mayCallLocals(n *sitter.Node, src []byte) bool {
	b := src[n.StartByte():n.EndByte()]
	return bytes.Contains(b, []byte("locals")) || bytes.Contains(b, []byte("vars"))
}

// usesLocals reports whether a class body writes names through locals()
// or vars(): locals()[k] = v, locals().update(...).
func usesLocals(n *sitter.Node, src []byte, known map[uint32]bool, depth int) bool {
	if depth > 12 {
		return false
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "function_definition", "decorated_definition", "class_definition":
			continue
		case "for_statement":
			if known[c.StartByte()] {
				continue // its names are listed (localsLoop)
			}
		case "call":
			if f := c.ChildByFieldName("function"); f != nil && f.Type() == "identifier" {
				if name := f.Content(src); name == "locals" || name == "vars" {
					if p := c.Parent(); p != nil && (p.Type() == "subscript" || p.Type() == "attribute") {
						return true
					}
				}
			}
		}
		if usesLocals(c, src, known, depth+1) {
			return true
		}
	}
	return false
}

// classBases lists a class statement's base expressions; open reports a
// base whose name is not known statically.
func (s *dynScan) classBases(d *sitter.Node, open map[string]bool) ([]string, bool) {
	sup := d.ChildByFieldName("superclasses")
	if sup == nil {
		return nil, false
	}
	var elems []*sitter.Node
	for _, a := range children(sup) {
		if a.Type() != "keyword_argument" {
			elems = append(elems, a)
		}
	}
	return s.baseNames(elems, open, nil)
}

// baseNames turns base expressions into dotted names, expanding names of
// tuples; open is set by a name in open (a parameter or loop variable),
// a starred or computed base.
func (s *dynScan) baseNames(elems []*sitter.Node, open map[string]bool, local map[string][]*sitter.Node) (out []string, isOpen bool) {
	for _, e := range elems {
		e = unparen(e)
		switch e.Type() {
		case "identifier", "attribute":
			name := s.w.text(e)
			head, _, _ := strings.Cut(name, ".")
			if t, ok := local[name]; ok {
				b, o := s.baseNames(t, open, nil)
				out, isOpen = append(out, b...), isOpen || o
				continue
			}
			if t, ok := s.tuples[name]; ok && !open[name] {
				b, o := s.baseNames(t, open, nil)
				out, isOpen = append(out, b...), isOpen || o
				continue
			}
			if open[head] {
				isOpen = true
				continue
			}
			out = append(out, name)
		case "tuple", "expression_list", "list":
			b, o := s.baseNames(children(e), open, local)
			out, isOpen = append(out, b...), isOpen || o
		default:
			isOpen = true
		}
	}
	return out, isOpen
}

// statement scans a module-level expression statement: assignments that
// bind load_tests, bases tuples, globals() items and class attributes, and
// the calls it makes.
func (s *dynScan) statement(n *sitter.Node, open map[string]bool) {
	if n.NamedChildCount() > 0 && n.NamedChild(0).Type() == "assignment" {
		a := n.NamedChild(0)
		left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
		if left != nil && right != nil {
			if s.specAssign(a, left, right, open) || s.metaAssign(a, left, right, open) || s.localFactory(a, left, right, open) {
				return
			}
			s.assignment(a, left, right, open)
		}
	}
	s.expressions(n, open)
}

func (s *dynScan) assignment(a, left, right *sitter.Node, open map[string]bool) {
	switch left.Type() {
	case "identifier":
		name := s.w.text(left)
		switch r := unparen(right); {
		case name == "load_tests":
			s.add(dynFact{Why: whyLoadTests, Line: line(a), Targets: s.moduleRefs(right, nil)})
		case r.Type() == "tuple" || r.Type() == "expression_list" || r.Type() == "list":
			s.tuples[name] = children(r)
		case r.Type() == "string":
			if v, _, ok := decodeString(s.w.text(r)); ok {
				s.strs[name] = v
			}
		case r.Type() == "call":
			if m := s.importCall(r); m != "" {
				s.strs[name] = m
			}
		}
	case "subscript":
		if v := left.ChildByFieldName("value"); v != nil && isNamespaceCall(v, s.w.src) {
			s.add(dynFact{Why: whyGlobals, Line: line(a), Open: true})
		}
	case "attribute":
		obj, attr := left.ChildByFieldName("object"), s.w.text(left.ChildByFieldName("attribute"))
		if obj != nil && obj.Type() == "identifier" && s.classes[s.w.text(obj)] && strings.HasPrefix(attr, "test") {
			s.add(dynFact{Why: whySetattr, Line: line(a), Class: s.w.text(obj)})
		}
	}
}

// isNamespaceCall reports globals() or vars() without arguments.
func isNamespaceCall(n *sitter.Node, src []byte) bool {
	if n.Type() != "call" {
		return false
	}
	f, args := n.ChildByFieldName("function"), n.ChildByFieldName("arguments")
	if f == nil || args == nil || args.NamedChildCount() != 0 {
		return false
	}
	name := f.Content(src)
	return name == "globals" || name == "vars"
}

// expressions scans the calls in an expression (not in lambdas or nested
// definitions): type() with three arguments, types.new_class, setattr on a
// module class, globals().update, and calls of module functions or imported
// names, which the linker checks for class factories and metaclasses.
func (s *dynScan) expressions(n *sitter.Node, open map[string]bool) {
	if n == nil || !mayCall(s.w.src[n.StartByte():n.EndByte()]) {
		return
	}
	walkCalls(n, 0, func(c *sitter.Node) {
		f := c.ChildByFieldName("function")
		args := children(c.ChildByFieldName("arguments"))
		callee := s.w.text(f)
		switch {
		case (callee == "type" && len(args) == 3) || (s.w.resolve(callee) == "types.new_class" && len(args) >= 2):
			bases, op := s.baseNames(args[1:2], open, nil)
			s.add(dynFact{Why: whyType, Line: line(c), Bases: bases, Open: op})
		case callee == "setattr" && len(args) >= 2:
			if args[0].Type() == "identifier" && s.classes[s.w.text(args[0])] && !s.handled[c.StartByte()] {
				s.add(dynFact{Why: whySetattr, Line: line(c), Class: s.w.text(args[0])})
			}
		case f.Type() == "attribute" && isNamespaceCall(f.ChildByFieldName("object"), s.w.src) && s.w.text(f.ChildByFieldName("attribute")) == "update":
			s.add(dynFact{Why: whyGlobals, Line: line(c), Open: true})
		case f.Type() == "identifier" || f.Type() == "attribute":
			head, _, _ := strings.Cut(callee, ".")
			if s.calls[callee] || !(s.w.defined[head] || s.w.facts.Imports[head] != "") {
				return
			}
			s.calls[callee] = true
			df := dynFact{Why: whyCall, Line: line(c), Call: callee}
			if len(args) == 3 {
				df.Bases, df.Open = s.baseNames(args[1:2], open, nil)
			}
			if f.Type() == "identifier" && len(args) == 0 && len(open) == 0 && s.w.bindings[callee] == 1 {
				for _, d := range s.defs {
					if s.w.text(d.ChildByFieldName("name")) == callee {
						df.Copies = s.copiedClasses(d)
					}
				}
			}
			s.add(df)
		}
	})
}

// mayCall reports whether code may hold a call: a '(' after a name, a
// closing bracket or a string (spaces, line ends and backslashes between),
// or a comment anywhere (one may stand between a callee and its '(').
// walkCalls visits every node through cgo; module-level tables of tuples
// hold none.
func mayCall(b []byte) bool {
	if bytes.IndexByte(b, '#') >= 0 {
		return true
	}
	for i := bytes.IndexByte(b, '('); i >= 0; {
		j := i - 1
		for j >= 0 && (b[j] == ' ' || b[j] == '\t' || b[j] == '\n' || b[j] == '\r' || b[j] == '\\' || b[j] == '\f') {
			j--
		}
		if j >= 0 && (isWordByte(b[j]) || b[j] == ')' || b[j] == ']' || b[j] == '}' || b[j] == '\'' || b[j] == '"') {
			return true
		}
		k := bytes.IndexByte(b[i+1:], '(')
		if k < 0 {
			break
		}
		i += k + 1
	}
	return false
}

// walkCalls calls yield for every call in n, outside lambdas and
// definitions.
func walkCalls(n *sitter.Node, depth int, yield func(*sitter.Node)) {
	if depth > 60 {
		return
	}
	switch n.Type() {
	case "lambda", "function_definition", "class_definition", "decorated_definition":
		return
	case "call":
		if n.ChildByFieldName("function") != nil {
			yield(n)
		}
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		walkCalls(n.NamedChild(i), depth+1, yield)
	}
}

// importLoadTests records `from M import load_tests`.
func (s *dynScan) importLoadTests(n *sitter.Node) {
	mn := n.ChildByFieldName("module_name")
	if mn == nil {
		return
	}
	for _, c := range children(n) {
		name := c
		if c.Type() == "aliased_import" {
			name = c.ChildByFieldName("name")
		}
		if c.StartByte() != mn.StartByte() && name != nil && s.w.text(name) == "load_tests" {
			s.add(dynFact{Why: whyLoadTests, Line: line(n), Targets: []string{s.w.text(mn)}})
		}
	}
}
