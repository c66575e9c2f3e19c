package python

import (
	"bytes"
	"context"
	"fmt"
	"path"
	"slices"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Settings keys the Detector passes to the extractor (Setup.Settings).
const (
	SetFunctions = "python_functions"
	SetClasses   = "python_classes"
	SetLongStr   = "parametrize_long_str_id_strategy"
	// SetNoEscape is the ini option that keeps non-ASCII in IDs.
	SetNoEscape = "disable_test_id_escaping_and_forfeit_all_rights_to_community_support"
	// SetStrictIDs and SetStrict (its default) make duplicate IDs an error.
	SetStrictIDs = "strict_parametrization_ids"
	SetStrict    = "strict"
)

// Extractor reads one Python file with tree-sitter, walking only the
// module level, class bodies and the branches of module-level if/try/with
// statements (a shallow walk: a full walk of the tree from Go, about 1.4 µs a
// node through cgo, costs more than the parse). tree-sitter parses a
// skeleton of the file without the bodies the walk never reads
// (skeleton.go), unless the file has doctests to read. It emits module-level pytest
// test functions as records and puts every class, import and module mark
// in Result.Facts: whether a class is a test class depends on its bases,
// which may live in other files, so classes become records in the Linker.
// The zero value is ready to use and safe for concurrent use.
type Extractor struct {
	// Unittest makes the records unittest's (no module-level functions).
	Unittest bool
}

// Framework is pytest or unittest.
func (e Extractor) Framework() testdex.Framework {
	if e.Unittest {
		return testdex.Unittest
	}
	return testdex.Pytest
}

// CacheKey changes whenever the output of Extract may change.
func (e Extractor) CacheKey() string { return "python/17/" + string(e.Framework()) }

// Extract parses f and returns its module-level test functions and facts.
// A file with NUL bytes is binary and gives one error Problem; syntax
// errors and invalid UTF-8 give an error Problem with the line and the
// tests that could be read.
func (e Extractor) Extract(f *lang.File) lang.Result { return e.extract(f, true) }

// extract is Extract, parsing the file's skeleton when blank is set
// (TestSkeletonSameResults compares the two).
func (e Extractor) extract(f *lang.File, blank bool) lang.Result {
	var res lang.Result
	if !e.Unittest && !strings.HasSuffix(f.Rel, ".py") {
		return textDoctest(f.Rel, f.Data) // a --doctest-glob file
	}
	if i := bytes.IndexByte(f.Data, 0); i >= 0 {
		res.Problems = append(res.Problems, problem(tsgrammars.Line(f.Data, i), "binary file (NUL byte): not Python source"))
		return res
	}
	if off, bad := tsgrammars.InvalidUTF8(f.Data); bad {
		res.Problems = append(res.Problems, problem(tsgrammars.Line(f.Data, off), "invalid UTF-8: Python source must be UTF-8 (names read from the rest may be wrong)"))
	}
	p, release := tsgrammars.Parser(tsgrammars.Python)
	defer release()
	// Doctests are read from docstrings, which the skeleton drops.
	doctests := !e.Unittest && len(f.Settings[SetDoctest]) > 0
	unittestDocs := e.Unittest && bytes.Contains(f.Data, []byte(">>>")) &&
		(bytes.Contains(f.Data, []byte("DocTestSuite")) || !strings.HasPrefix(path.Base(f.Rel), "test"))
	tree, src, err := parseSkeleton(p, f.Data, blank && !doctests && !unittestDocs)
	if err != nil || tree == nil {
		res.Problems = append(res.Problems, problem(0, "cannot parse: tree-sitter gave up"))
		return res
	}
	defer tree.Close()
	root := tree.RootNode()
	roots := []*sitter.Node{root}
	if root.HasError() {
		line, what := firstError(root, 0)
		res.Problems = append(res.Problems, problem(line, "syntax error ("+what+"): tests after it may be missing; fix the file and list again"))
		trees := reparse(p, f.Data)
		defer func() {
			for _, t := range trees {
				t.Close()
			}
		}()
		roots = roots[:0]
		for _, t := range trees {
			roots = append(roots, t.RootNode())
		}
	}
	w := newWalker(f, e.Unittest)
	w.src = src // the skeleton: the walker reads nodes' text from the bytes parsed
	w.module(roots...)
	w.dynamics(roots)
	if w.refused {
		w.dropTests()
	} else if w.skipsOnHost(roots[0]) {
		w.dropTests()
		w.facts.Skipped = true
	} else {
		w.layoutFacts(roots[0])
	}
	if unittestDocs {
		// For a load_tests hook's DocTestSuite (of this module or of a
		// module it names, which test files seldom are): a prompt
		// without its blank makes the suite raise, and the hook's
		// dynamic record stays alone.
		if docs, dyn, bad := scanDoctests(roots[0], w.src); bad == 0 {
			w.facts.Doctests, w.facts.DocDyn = docs, dyn
		}
	}
	if doctests {
		w.doctests(roots[0])
	}
	res.Tests = w.tests
	res.Problems = append(res.Problems, w.problems...)
	res.Facts = w.facts.encode()
	return res
}

// parseSkeleton parses data with its methods' bodies blanked (skeleton)
// when blank is set and the tokenizer follows the file, and data itself
// otherwise or when the blanked copy has a syntax error, so that errors
// are found and reported on the file as written. It returns the bytes it
// parsed: the tree's offsets are into them (its lines and columns are
// data's).
func parseSkeleton(p *sitter.Parser, data []byte, blank bool) (*sitter.Tree, []byte, error) {
	if blank {
		if sk, ok := skeleton(data); ok {
			tree, err := p.ParseCtx(context.Background(), nil, sk)
			if err == nil && tree != nil && !tree.RootNode().HasError() {
				return tree, sk, nil
			}
			if tree != nil {
				tree.Close()
			}
		}
	}
	tree, err := p.ParseCtx(context.Background(), nil, data)
	return tree, data, err
}

// dropTests empties a module pytest refuses to collect (a warning says
// why): it reports none of its tests, only the error.
func (w *walker) dropTests() {
	w.tests = nil
	w.facts.Funcs, w.facts.Classes, w.facts.Dyn = nil, nil, nil
}

func problem(line int, msg string) testdex.Problem {
	return testdex.Problem{Severity: testdex.SevError, Line: line, Message: msg}
}

// firstError finds the first ERROR or MISSING node, descending only along
// children that contain an error.
func firstError(n *sitter.Node, depth int) (int, string) {
	for depth < 200 {
		if n.IsMissing() {
			return int(n.StartPoint().Row) + 1, "missing " + n.Type()
		}
		if n.Type() == "ERROR" {
			// An ERROR node may hold whole statements before the bad part
			// (an unfinished file makes the module itself an ERROR).
			for i := 0; i < int(n.ChildCount()); i++ {
				c := n.Child(i)
				if t := c.Type(); c.HasError() || !(strings.HasSuffix(t, "_statement") || strings.HasSuffix(t, "definition") || t == "comment") {
					return int(c.StartPoint().Row) + 1, "unexpected input"
				}
			}
			return int(n.StartPoint().Row) + 1, "unexpected input"
		}
		var next *sitter.Node
		for i := 0; i < int(n.ChildCount()); i++ {
			if c := n.Child(i); c.HasError() || c.IsMissing() {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		n, depth = next, depth+1
	}
	return int(n.StartPoint().Row) + 1, "unexpected input"
}

// walker holds one file's extraction state.
type walker struct {
	evaluator // the module's names and the values of expressions over them
	unittest  bool
	functions []string                // python_functions
	longStr   string                  // parametrize_long_str_id_strategy
	noEscape  bool                    // disable_test_id_escaping_and_forfeit_all_rights_to_community_support
	strictIDs bool                    // strict_parametrization_ids, or strict when unset
	markVars  map[string]*sitter.Node // module-level NAME = pytest.mark.x
	paramDecs map[string]bool         // module-level functions whose body calls parametrize
	paramDefs map[string]*sitter.Node // their definitions
	refused   bool                    // pytest fails the module's collection
	mismatch  bool                    // the last table's ids= has the wrong length
	tests     []lang.Test
	problems  []testdex.Problem // warnings about parts not read
	seenFn    map[string]bool
	// localsLoops are the class-body loops whose locals()[KEY] names are
	// known (localsloop.go), by start byte: no dynamic record for them.
	localsLoops map[uint32]bool
}

// evaluator is the evaluation half of a walker: the module's top-level
// names (literals, definitions, enums, imports) and the values of
// expressions over them, as pytest would compute them at collection
// (value.go, values.go, literal.go, repr.go, numbers.go), with no
// knowledge of test functions or records. The walker finds the tests
// and their parameter tables and emits the records, asking the evaluator
// for values.
type evaluator struct {
	src        []byte
	orig       []byte         // the file as written (src may be its skeleton)
	wordCounts map[string]int // the identifiers of orig, counted when needed (spent.go)
	noEscape   bool           // disable_test_id_escaping_and_forfeit_all_rights_to_community_support
	facts      fileFacts
	literals   map[string]*sitter.Node    // module-level NAME = literal
	defined    map[string]bool            // module-level def and class names
	enums      map[string]map[string]bool // module-level enum classes' members
	assumed    []string                   // the current table's Assumed
	consts     []string                   // the current table's Consts
	identMemo  map[string]memoVal         // the values of module-level names, once evaluated
	bindings   map[string]int             // module-level bindings by name: imports, defs, assignments
	locals     map[string]elem            // the comprehension variables bound where a value is evaluated
	bound      map[string][]modBinding    // module-level assignments by name, in order (rebound.go)
	funcs      map[string]*sitter.Node    // module-level (decorated) defs a table may call (funcs.go)
	classDefs  map[string]*sitter.Node    // module-level (decorated) classes (objects.go)
	records    map[string]*recordClass    // the record classes read so far, nil for a class that is not one
	steps      int                        // statements helpers have run for the current table
	evals      int                        // values and sequences read for the current table (maxEvals)
	callDepth  int                        // helper calls open
	copying    bool                       // list(X) or tuple(X) reads X now: the name's value at that point
	cls        *classScope                // the class body being walked (rebound.go)
}

func newWalker(f *lang.File, unittest bool) *walker {
	fns := f.Settings[SetFunctions]
	if fns == nil {
		fns = []string{"test"}
	}
	longStr := ""
	if v := f.Settings[SetLongStr]; len(v) == 1 {
		longStr = v[0]
	}
	return &walker{evaluator: evaluator{src: f.Data, orig: f.Data, facts: fileFacts{Imports: map[string]string{}, ImportLines: map[string]int{}},
		literals: map[string]*sitter.Node{}, defined: map[string]bool{}, bindings: map[string]int{}, noEscape: iniBool(f.Settings[SetNoEscape])},
		unittest: unittest, functions: fns, longStr: longStr,
		strictIDs: strictIDs(f.Settings), markVars: map[string]*sitter.Node{}, seenFn: map[string]bool{}}
}

// strictIDs is pytest 9's strict_parametrization_ids, which defaults to
// strict.
func strictIDs(s lang.Settings) bool {
	if v, ok := s[SetStrictIDs]; ok {
		return iniBool(v)
	}
	return iniBool(s[SetStrict])
}

// iniBool is pytest's bool ini value (_strtobool); absent is false.
func iniBool(v []string) bool {
	if len(v) != 1 {
		return false
	}
	switch strings.ToLower(strings.TrimSpace(v[0])) {
	case "y", "yes", "t", "true", "on", "1":
		return true
	}
	return false
}

func (w *evaluator) text(n *sitter.Node) string {
	if n == nil {
		return ""
	}
	return strings.ToValidUTF8(n.Content(w.src), "\uFFFD")
}

func line(n *sitter.Node) int { return int(n.StartPoint().Row) + 1 }

// maxBlocks bounds how deep statements descends into if, try and with
// statements and their branches (each statement and each block count one).
const maxBlocks = 8

// statements yields the statements of a block, descending into if, try,
// with and their else/except/finally branches: code that may define tests
// at run time. Definitions nested deeper than maxBlocks are not read, with
// a warning.
func (w *walker) statements(n *sitter.Node, depth int, yield func(*sitter.Node)) {
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "if_statement":
			if cond := c.ChildByFieldName("condition"); cond != nil && isMainCheck(cond.Content(w.src)) {
				continue // runs only as a script, never on import
			}
			for _, b := range w.hostBranches(c) {
				w.branch(b, depth, yield)
			}
		case "try_statement", "with_statement", "elif_clause", "else_clause",
			"except_clause", "finally_clause", "block", "except_group_clause":
			w.branch(c, depth, yield)
		default:
			yield(c)
		}
	}
}

func (w *walker) branch(c *sitter.Node, depth int, yield func(*sitter.Node)) {
	if depth < maxBlocks {
		w.statements(c, depth+1, yield)
		return
	}
	if d := firstDefinition(c); d != nil {
		w.warnOnce(line(d), "definitions inside if, try and with statements nested this deep are not read; tests defined here are not listed (move them out)")
	}
}

// firstDefinition returns the first function or class defined in n, nil
// if none.
func firstDefinition(n *sitter.Node) *sitter.Node {
	cur := sitter.NewTreeCursor(n)
	defer cur.Close()
	for {
		if c := cur.CurrentNode(); c.Type() == "function_definition" || c.Type() == "class_definition" {
			return c
		}
		if cur.GoToFirstChild() {
			continue
		}
		for !cur.GoToNextSibling() {
			if !cur.GoToParent() { // the cursor cannot leave n
				return nil
			}
		}
	}
}

// warnOnce records a warning, once per message.
func (w *walker) warnOnce(line int, msg string) {
	for _, p := range w.problems {
		if p.Message == msg {
			return
		}
	}
	w.problems = append(w.problems, testdex.Problem{Severity: testdex.SevWarning, Line: line, Message: msg})
}

// module walks the module level: imports and assignments first (marks and
// tables may be defined below their use only in theory), then definitions.
func (w *walker) module(roots ...*sitter.Node) {
	var defs []*sitter.Node
	for _, root := range roots {
		w.topLevel(root, &defs)
	}
	w.definitions(defs)
}

// topLevel reads one tree's imports and assignments and collects its
// definitions.
func (w *walker) topLevel(root *sitter.Node, defs *[]*sitter.Node) {
	w.statements(root, 0, func(n *sitter.Node) {
		switch n.Type() {
		case "import_statement", "import_from_statement":
			w.imports(n)
		case "expression_statement":
			w.moduleAssign(n)
		case "delete_statement":
			for _, t := range children(n) {
				if t.Type() == "expression_list" {
					for _, x := range children(t) {
						w.deleted(x)
					}
				} else {
					w.deleted(t)
				}
			}
		case "decorated_definition", "function_definition", "class_definition":
			*defs = append(*defs, n)
			if d := definition(n); d != nil {
				name := w.text(d.ChildByFieldName("name"))
				w.defined[name] = true
				w.bindings[name]++
				switch d.Type() {
				case "function_definition":
					if w.funcs == nil {
						w.funcs = map[string]*sitter.Node{}
					}
					w.funcs[name] = n
				case "class_definition":
					if w.classDefs == nil {
						w.classDefs = map[string]*sitter.Node{}
					}
					w.classDefs[name] = n
				}
				if body := d.ChildByFieldName("body"); d.Type() == "function_definition" && body != nil &&
					strings.Contains(w.text(body), "parametrize") {
					if w.paramDecs == nil {
						w.paramDecs, w.paramDefs = map[string]bool{}, map[string]*sitter.Node{}
					}
					w.paramDecs[name], w.paramDefs[name] = true, d
				}
			}
		}
	})
}

// definitions reads the module's classes and functions, after every
// import and assignment.
func (w *walker) definitions(defs []*sitter.Node) {
	if v, ok := w.literals["pytestmark"]; ok {
		w.facts.Module = spend(w.markList(v))
	}
	w.enumMembers(defs)
	w.constants()
	w.seqConstants()
	for _, n := range defs {
		// A class counts when no decorator could replace it.
		if d := definition(n); d != nil && (d.Type() == "function_definition" || d.Type() == "class_definition" && n.Type() == "class_definition") {
			if name := w.text(d.ChildByFieldName("name")); w.bindings[name] == 1 && !slices.Contains(w.facts.Defs, name) {
				w.facts.Defs = append(w.facts.Defs, name)
			}
		}
	}
	for _, n := range defs {
		d := definition(n)
		if d == nil {
			continue
		}
		if d.Type() == "class_definition" {
			w.class(n, d, -1, 0)
			continue
		}
		if !w.unittest {
			w.function(n, d)
			if name, f, ok := w.fixture(n, d, false); ok {
				if w.facts.Fixtures == nil {
					w.facts.Fixtures = map[string]fixtureFact{}
				}
				w.facts.Fixtures[name] = f
			}
		}
	}
}

// definition returns the function or class of a (decorated) definition.
func definition(n *sitter.Node) *sitter.Node {
	if n.Type() == "decorated_definition" {
		return n.ChildByFieldName("definition")
	}
	return n
}

// decorators returns a decorated definition's decorator expressions, in
// application order (bottom to top).
func decorators(n *sitter.Node) []*sitter.Node {
	if n.Type() != "decorated_definition" {
		return nil
	}
	var out []*sitter.Node
	for i := int(n.NamedChildCount()) - 1; i >= 0; i-- {
		c := n.NamedChild(i)
		if c.Type() == "decorator" && c.NamedChildCount() > 0 {
			out = append(out, c.NamedChild(0))
		}
	}
	return out
}

func (w *walker) imports(n *sitter.Node) {
	module := ""
	mn := n.ChildByFieldName("module_name")
	if mn != nil {
		module = w.text(mn)
	}
	for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
		c := n.NamedChild(i)
		if mn != nil && c.StartByte() == mn.StartByte() {
			continue
		}
		name, alias := c, c
		if c.Type() == "aliased_import" {
			name, alias = c.ChildByFieldName("name"), c.ChildByFieldName("alias")
		}
		if name == nil || alias == nil || (c.Type() != "aliased_import" && c.Type() != "dotted_name") {
			continue
		}
		full, local := w.text(name), w.text(alias)
		switch {
		case module != "":
			if !strings.HasSuffix(module, ".") {
				full = module + "." + full
			} else {
				full = module + full
			}
		case c.Type() == "dotted_name":
			local, _, _ = strings.Cut(full, ".")
			full = local
		}
		w.facts.Imports[local] = full
		w.bindings[local]++
		w.facts.ImportLines[local] = line(n)
	}
}

// moduleAssign remembers NAME = value at module level, for pytestmark,
// mark aliases and literal parameter tables.
func (w *walker) moduleAssign(n *sitter.Node) {
	if n.NamedChildCount() == 0 {
		return
	}
	a := n.NamedChild(0)
	top := n.Parent() != nil && n.Parent().Type() == "module"
	if a.Type() == "augmented_assignment" {
		if left := a.ChildByFieldName("left"); left != nil && left.Type() == "identifier" {
			w.bindings[w.text(left)] += 2 // X += [...]: X's value is not its literal
			w.remember(w.text(left), modBinding{n: a, aug: true, top: top})
		}
		return
	}
	if name, b, ok := w.mutation(a); ok {
		w.bindings[name] += 2 // X.append(...), X[k] = v: X's value is not its literal
		b.top = b.top && top
		w.remember(name, b)
		return
	}
	if a.Type() != "assignment" {
		return
	}
	left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
	if left == nil || right == nil || left.Type() != "identifier" {
		return
	}
	name := w.text(left)
	if _, ok := w.markName(right); ok {
		w.markVars[name] = right
	}
	w.literals[name] = right
	w.bindings[name]++
	w.remember(name, modBinding{n: a, top: top})
}

// remember records a module-level assignment of a name (rebound.go).
func (w *walker) remember(name string, b modBinding) {
	if w.bound == nil {
		w.bound = map[string][]modBinding{}
	}
	w.bound[name] = append(w.bound[name], b)
}

// fixture reads a (decorated) function that @pytest.fixture or
// @pytest.fixture(...) makes a fixture: its name (name= or the
// function's), params= table, requested fixtures, scope and autouse. ok
// is false when the function is not a fixture.
func (w *walker) fixture(n, d *sitter.Node, method bool) (string, fixtureFact, bool) {
	for _, e := range decorators(n) {
		if w.resolve(w.text(e)) == "pytest.fixture" {
			return w.text(d.ChildByFieldName("name")), fixtureFact{Args: w.args(d, method)}, true
		}
		if e.Type() != "call" || w.resolve(w.text(e.ChildByFieldName("function"))) != "pytest.fixture" {
			continue
		}
		name := w.text(d.ChildByFieldName("name"))
		f := fixtureFact{Args: w.args(d, method)}
		var params, ids *sitter.Node
		for _, a := range children(e.ChildByFieldName("arguments")) {
			if a.Type() != "keyword_argument" {
				if s, _, ok := decodeString(w.text(a)); ok && a.Type() == "string" {
					f.Scope = s // the first positional parameter is scope
				} else {
					f.Scope = "?"
				}
				continue
			}
			switch v := a.ChildByFieldName("value"); w.text(a.ChildByFieldName("name")) {
			case "params":
				params = v
			case "ids":
				ids = v
			case "name":
				if s, _, ok := decodeString(w.text(v)); ok && v.Type() == "string" {
					name = s
				}
			case "scope":
				if s, _, ok := decodeString(w.text(v)); ok && v.Type() == "string" {
					f.Scope = s
				} else {
					f.Scope = "?"
				}
			case "autouse":
				switch v.Type() {
				case "true":
					f.Auto = true
				case "false", "none":
				default:
					f.AutoUnknown = true
				}
			}
		}
		if f.Scope == "function" {
			f.Scope = ""
		}
		if params != nil {
			t := w.table([]string{name}, params, ids)
			f.Params = &t
		}
		return name, f, true
	}
	return "", fixtureFact{}, false
}

// maxClassDepth bounds the nesting of classes read (a class at module
// level is at depth 0). It is CPython's own bound: its tokenizer refuses
// more than 100 levels of indentation (MAXINDENT, "too many levels of
// indentation"), so every class Python can run is read, and the bound
// only keeps a hostile file from driving the walk arbitrarily deep.
const maxClassDepth = 98

// class records a class and its candidate methods in the facts. A class
// nested deeper than maxClassDepth is left out, with a warning; the
// classes around it are kept.
func (w *walker) class(n, d *sitter.Node, outer, depth int) {
	if depth > maxClassDepth {
		w.warnOnce(line(d), fmt.Sprintf("classes nested more than %d deep are not read (Python refuses as many levels of indentation); this class and the tests in it are not listed", maxClassDepth))
		return
	}
	c := classFact{Name: w.text(d.ChildByFieldName("name")), Line: line(d), Outer: outer}
	if sup := d.ChildByFieldName("superclasses"); sup != nil {
		for i := 0; i < int(sup.NamedChildCount()); i++ {
			if b := sup.NamedChild(i); b.Type() == "identifier" || b.Type() == "attribute" {
				c.Bases = append(c.Bases, w.text(b))
			}
		}
	}
	c.Marks, _ = w.marks(decorators(n))
	c.Marks = spend(c.Marks)
	idx := len(w.facts.Classes)
	w.facts.Classes = append(w.facts.Classes, c)
	body := d.ChildByFieldName("body")
	if body == nil {
		return
	}
	var bodyMarks markSet
	seen := map[string]bool{}
	savedScope := w.cls
	w.cls = &classScope{body: body}
	defer func() { w.cls = savedScope }()
	w.statements(body, 0, func(s *sitter.Node) {
		sd := definition(s)
		switch {
		case s.Type() == "for_statement":
			names, ok := w.localsLoop(s)
			if !ok {
				return
			}
			if w.localsLoops == nil {
				w.localsLoops = map[uint32]bool{}
			}
			w.localsLoops[s.StartByte()] = true
			for _, name := range names {
				if !seen[name] {
					seen[name] = true
					w.facts.Classes[idx].unhide(name)
					w.facts.Classes[idx].Methods = append(w.facts.Classes[idx].Methods, fnFact{Name: name, Line: line(s)})
				}
			}
		case s.Type() == "expression_statement":
			w.classAssign(s, idx, &bodyMarks)
			for _, name := range w.hidingAssign(s) {
				w.facts.Classes[idx].hide(name)
				seen[name] = false
			}
			if fn, ok := w.assignedMethod(s); ok && !seen[fn.Name] {
				seen[fn.Name] = true
				w.facts.Classes[idx].Methods = append(w.facts.Classes[idx].Methods, fn)
			}
		case sd == nil:
		case sd.Type() == "class_definition":
			w.class(s, sd, idx, depth+1)
		case sd.Type() == "function_definition":
			name := w.text(sd.ChildByFieldName("name"))
			if name == "__init__" || name == "__new__" {
				w.facts.Classes[idx].HasInit = true
			}
			if fname, f, ok := w.fixture(s, sd, true); ok && !w.unittest {
				if w.facts.Classes[idx].Fixtures == nil {
					w.facts.Classes[idx].Fixtures = map[string]fixtureFact{}
				}
				w.facts.Classes[idx].Fixtures[fname] = f
			}
			if seen[name] || !(strings.HasPrefix(name, "test") || name == "runTest" || matchesOption(name, w.functions)) {
				return
			}
			seen[name] = true
			w.facts.Classes[idx].unhide(name)
			marks, isTest := w.marks(decorators(s))
			if isTest {
				w.facts.Classes[idx].Methods = append(w.facts.Classes[idx].Methods, fnFact{Name: name, Line: line(sd), Marks: spend(marks), Args: w.givenless(s, w.args(sd, true))})
			}
		}
	})
	// The body's pytestmark comes before the decorators' marks.
	w.facts.Classes[idx].Marks = bodyMarks.merge(w.facts.Classes[idx].Marks)
	if w.unittest && w.importedDecorator(n) {
		w.facts.Classes[idx].NS = w.classNamespace(body)
	}
}

// importedDecorator reports a class decorated by a bare name imported
// from another module (decorun.go may run it over the class).
func (w *walker) importedDecorator(n *sitter.Node) bool {
	for _, e := range decorators(n) {
		first, _, _ := strings.Cut(w.text(e), ".")
		if e.Type() != "call" && w.facts.Imports[first] != "" && !strings.HasPrefix(w.resolve(w.text(e)), "unittest.") {
			return true
		}
	}
	return false
}

// classAssign reads __test__ and pytestmark in a class body.
func (w *walker) classAssign(s *sitter.Node, idx int, marks *markSet) {
	if s.NamedChildCount() == 0 || s.NamedChild(0).Type() != "assignment" {
		return
	}
	a := s.NamedChild(0)
	left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
	if left == nil || right == nil {
		return
	}
	switch w.text(left) {
	case "__test__":
		v := right.Type() != "false" && right.Type() != "none" && w.text(right) != "0"
		w.facts.Classes[idx].TestAttr = &v
	case "pytestmark":
		*marks = spend(w.markList(right))
	}
}

// markList reads pytestmark's value: one mark or a list or tuple of them.
func (w *walker) markList(n *sitter.Node) markSet {
	var exprs []*sitter.Node
	if n.Type() == "list" || n.Type() == "tuple" {
		for i, nc := 0, int(n.NamedChildCount()); i < nc; i++ {
			exprs = append(exprs, n.NamedChild(i))
		}
	} else {
		exprs = []*sitter.Node{n}
	}
	m, _ := w.marks(exprs)
	return m
}

// isMainCheck reports whether an if condition is __name__ == "__main__".
func isMainCheck(cond string) bool {
	c := strings.Join(strings.Fields(cond), "")
	return c == `__name__=="__main__"` || c == `__name__=='__main__'` || c == `"__main__"==__name__` || c == `'__main__'==__name__`
}

// assignedMethod reads a unittest test method bound by assignment in a
// class body (testX = Other.testX, testY = decorator(testZ), a lambda):
// unittest collects any callable attribute named test*. Literals are not
// callable and are left out; pytest, which wants functions, is not served.
func (w *walker) assignedMethod(s *sitter.Node) (fnFact, bool) {
	if !w.unittest || s.NamedChildCount() == 0 || s.NamedChild(0).Type() != "assignment" {
		return fnFact{}, false
	}
	a := s.NamedChild(0)
	left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
	if left == nil || right == nil || left.Type() != "identifier" || !strings.HasPrefix(w.text(left), "test") {
		return fnFact{}, false
	}
	switch right.Type() {
	case "identifier", "attribute", "call", "lambda":
		return fnFact{Name: w.text(left), Line: line(a)}, true
	}
	return fnFact{}, false
}
