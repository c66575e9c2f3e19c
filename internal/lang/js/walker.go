package js

import (
	"fmt"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// maxRows bounds the records one call may expand to (a describe.each
// inside a describe.each multiplies); beyond it the call is one dynamic
// record.
const maxRows = 1000

// walker reads one parsed file.
type walker struct {
	evaluator     // what the module's names hold, and evaluation
	fw            testdex.Framework
	aliases       map[string]string       // local name -> describe, it, test, ...
	calleeAliases map[string]*sitter.Node // const t = test.skip, cond ? test.skip : test
	// foreignSuites are node:test's describe and suite imported into a
	// Vitest file: not suites of it, but their callbacks run once, when
	// the file is collected.
	foreignSuites map[string]bool
	deepPath      int // see deepPath; tests lower it
	stack         []*frame
	tests         []lang.Test
	problems      []testdex.Problem
	tooDeep       bool           // the maxNesting warning is given
	seen          map[string]int // the records listed, by key: the line of the first
	q             *sitter.Query
	calls         map[sitter.Symbol]bool
	helpers       *helperSet                          // local functions that declare tests; nil until asked
	inlining      []uint32                            // the helpers being inlined, by first byte (recursion)
	limit         uint32                              // when not 0, calls from this byte on are not this walker's (a helper's end)
	base          *instance                           // the parent of top-level calls in a loaded file (see loadedExtractor)
	loaded        bool                                // list only what runs when the file is loaded (see loadedExtractor)
	loads         []loadFact                          // the load sites (see loads.go)
	hidden        bool                                // a loaded file declares tests in a function (see loadedExtractor)
	builtins      map[string]nodeBinding              // see builtinBindings; nil until asked
	processBound  uint8                               // see globalProcess: 0 not asked, 1 the global only, 2 maybe bound
	inert         map[string]bool                     // see inertShadows; nil until asked
	blockFns      map[uintptr]map[string]*sitter.Node // see blockFunction
	declared      map[string]bool                     // see blockBinding; nil until asked
	jasmine       bool                                // Jest runs the file with jest-jasmine2 (see jestJasmine)
}

// evaluator is the evaluation half of a walker: the module's top-level
// bindings and the values of expressions over them (eval.go, evalcall.go,
// jsops.go, env.go, scope.go, mutated.go), with no knowledge of test
// calls or records. The walker (walker.go, spec.go and the rest) finds
// the test calls and emits their records, asking the evaluator for titles
// and tables.
type evaluator struct {
	// tsTarget is the edition year ts-jest compiles the file to (esYear),
	// 0 when it does not: functions print as the compiler writes them.
	tsTarget     int
	lang         *sitter.Language
	src          []byte
	root         *sitter.Node
	consts       map[string]*sitter.Node            // module-level const NAME = literal
	vars         map[string]*sitter.Node            // module-level let and var, used when nothing mutates them
	redeclared   map[string]bool                    // module-level names declared more than once
	mutations    map[string]bool                    // see mutated; nil until asked
	sites        map[string][]*sitter.Node          // the changes of each name mutated, in source order
	fnDecls      map[string]*sitter.Node            // function declarations at the top level, by name
	locals       map[localKey]localDecl             // localConst's answers
	callMemo     map[callKey]value                  // localCall's answers
	mentioned    map[string]int                     // identifiers by name, and "()"+name their direct calls; nil until asked
	pinned       map[string]value                   // the bindings a replayed for loop fixes at an iteration (see changeFor)
	forMemo      map[uint32]replayed                // module-level for loops replayed, by the change's first byte
	bound        map[string]bool                    // names an identifier may bind anywhere in the file (see globalFunction); nil until asked
	later        func(fn *sitter.Node) bool         // whether a function runs only after every title is read
	host         func(n *sitter.Node) (value, bool) // what n reads of the host (see hostFact)
	scopes       map[uint32]*sitter.Node            // the loops and functions env bindings name, by first byte
	functions    map[string]bool                    // functions declared at the top level
	evaluating   map[string]bool                    // consts being evaluated (cycles)
	memo         map[memoKey]value                  // definitions evaluated
	env          *env                               // the bindings of the instance being evaluated
	imports      map[string]importRef               // module-level bindings of relative imports
	importValues map[string]value                   // their values, when the linker read the modules
	// appended are the imported helpers the linker appended to the
	// source as declarations, from origEnd on; site is the line of the
	// call in the file that inlines one (see withHelpers).
	appended    map[string]bool
	needHelpers bool // a call of an imported function may declare tests
	origEnd     uint32
	site        int
	needImports bool // a title needed an import's value
	// dirs are the entries of the folders readdirSync calls read, by
	// marked path (see loadpath.go), and requireValue the module a
	// computed require loads, both supplied by the linker; needDirs are
	// the folders a title needed before it did.
	dirs         map[string][]string
	requireValue func(marked string) (value, bool)
	needDirs     []string
	file         string   // the file's path (for __filename); "" when not known
	lin          *lineage // ancestors of the call being visited, with their blocks' consts in scope
}

// maxNesting bounds the nesting of records: a call nested deeper is one
// dynamic record standing for itself and everything in it, with a warning.
// Each record's name holds every ancestor's title, so a listing grows with
// the square of the depth (20,000 levels of describe('d') would be 800 MB
// of names); no suite a runner can load nests anywhere near this deep.
const maxNesting = 1000

// frame is a describe or test call whose callback may declare more tests.
// One call stands for several instances when it is a .each.
type frame struct {
	node      *sitter.Node
	at        int // index of node in the walker's lineage
	end       uint32
	collapsed bool     // a record past maxNesting: the calls inside are not listed
	test      bool     // a test (its callback's first parameter may be t)
	params    []string // callback parameter names (node:test's t)
	instances []instance
}

// instance is one record a call produced.
type instance struct {
	key     string
	spaced  string // the titles from the outermost describe, joined by spaces
	record  bool   // false for the module, the parent of top-level calls
	dynamic bool
	skip    bool
	only    bool // focused, itself or by an enclosing describe.only
	cond    bool // skipped or not by a condition known only at run time
	run     string
	test    bool // a test's record, not a suite's: node:test runs its body only when its own name matches
	env     *env // the loop variables and parameters bound where it runs
}

func newWalker(fw testdex.Framework, g *sitter.Language, src []byte, root *sitter.Node) *walker {
	w := &walker{fw: fw, evaluator: evaluator{lang: g, src: src, root: root, consts: map[string]*sitter.Node{},
		vars: map[string]*sitter.Node{}, functions: map[string]bool{}, fnDecls: map[string]*sitter.Node{},
		locals: map[localKey]localDecl{}, callMemo: map[callKey]value{}, scopes: map[uint32]*sitter.Node{}, redeclared: map[string]bool{},
		evaluating: map[string]bool{}, memo: map[memoKey]value{}, lin: newLineage(root)},
		calleeAliases: map[string]*sitter.Node{}, foreignSuites: map[string]bool{}, aliases: map[string]string{}, seen: map[string]int{},
		deepPath: deepPath}
	w.later = w.testBody
	w.host = w.hostFact
	w.scanModule()
	return w
}

// testBody reports whether fn is the body of a test (it('t', fn), not a
// describe's callback): Jest, Vitest and Mocha run it only after every
// title is read, so what it changes cannot change a title. node:test runs
// a test's body while the file still declares tests (its t.test
// subtests), so there none is.
func (w *walker) testBody(fn *sitter.Node) bool {
	args := fn.Parent()
	if w.fw == testdex.NodeTest || args == nil || args.Type() != "arguments" {
		return false
	}
	c := args.Parent()
	if c == nil || c.Type() != "call_expression" {
		return false
	}
	f := c.ChildByFieldName("function")
	if f == nil || f.Type() == "call_expression" {
		return false // .each(table)(title, fn): not read here
	}
	bs, ok := w.branches(f, 0)
	if !ok || len(bs) == 0 {
		return false
	}
	for _, b := range bs {
		canon, ok := w.canonical(b.base)
		if !ok || suites[canon] {
			return false
		}
	}
	return true
}

// close releases the walker's tree cursors.
func (w *walker) close() { w.lin.close() }

func (w *evaluator) text(n *sitter.Node) string {
	s, e := n.StartByte(), n.EndByte()
	if int(e) > len(w.src) || s > e {
		return ""
	}
	return string(w.src[s:e])
}

// deepPath is the depth of the call being visited (in syntax nodes, about
// five per level of describe) past which run leaves the query cursor for
// a walk with a tree cursor. A query cursor keeps a state per enclosing
// match and rescans them at every node, which is quadratic in the nesting;
// the walk is linear but reads every node from Go, about a third slower on
// the shallow files that are the rule.
const deepPath = 256

// run visits every call in document order, keeping the stack of enclosing
// describe and test calls by byte range.
func (w *walker) run(q *sitter.Query, calls map[sitter.Symbol]bool) {
	w.runIn(q, calls, w.root)
}

// runIn is run over the calls inside n.
func (w *walker) runIn(q *sitter.Query, calls map[sitter.Symbol]bool, n *sitter.Node) {
	w.q, w.calls = q, calls
	for c := range tsgrammars.CaptureNodes(q, n) {
		w.call(c)
		if len(w.lin.path) > w.deepPath {
			w.walkAfter(c, calls)
			return
		}
	}
}

// walkAfter visits the calls that follow n in document order (n's own
// descendants first), moving a tree cursor node by node.
func (w *walker) walkAfter(n *sitter.Node, calls map[sitter.Symbol]bool) {
	l := newLineage(w.root)
	defer l.close()
	if !l.descend(n) {
		w.problems = append(w.problems, testdex.Problem{Severity: testdex.SevError, Line: int(n.StartPoint().Row) + 1,
			Message: "internal error: cannot walk the syntax tree from this line; the tests after it are not listed (please report it)"})
		return
	}
	cur := l.cur
	for {
		if !cur.GoToFirstChild() {
			for !cur.GoToNextSibling() {
				if !cur.GoToParent() {
					return
				}
			}
		}
		if c := cur.CurrentNode(); calls[c.Symbol()] {
			w.call(c)
		}
	}
}

func (w *walker) call(c *sitter.Node) {
	if w.limit != 0 && c.StartByte() >= w.limit {
		return
	}
	for len(w.stack) > 0 && w.stack[len(w.stack)-1].end <= c.StartByte() {
		w.stack = w.stack[:len(w.stack)-1]
	}
	var parent *frame
	if len(w.stack) > 0 {
		parent = w.stack[len(w.stack)-1]
	}
	if parent != nil && parent.collapsed {
		return
	}
	if !w.lin.moveTo(c) {
		w.problems = append(w.problems, testdex.Problem{Severity: testdex.SevError, Line: int(c.StartPoint().Row) + 1,
			Message: "internal error: cannot place this call in the syntax tree; its tests are not listed (please report it)"})
		return
	}
	at := -1
	if parent != nil {
		at = parent.at
	}
	if w.insideHelper(at) {
		return // listed where the helper is called
	}
	sp, ok := w.classify(c)
	if ok && !sp.subtest && w.shadowedByBlock(c, parent) {
		ok = false // a function of the block's own (see shadowedByBlock)
	}
	if !ok {
		if !w.loadSite(c, parent, at) {
			w.inline(c, parent, at)
		}
		return
	}
	if sp.subtest && (parent == nil || !parent.test || !contains(parent.params, sp.base)) {
		return
	}
	if w.loaded && !w.runsOnLoad(at) {
		w.hidden = true
		return // declared in a function another file may call: not when this one is loaded
	}
	fr := &frame{node: c, at: len(w.lin.path) - 1, end: c.EndByte(), test: !sp.suite, params: w.params(sp.fn)}
	parents := w.topInstances()
	if parent != nil {
		parents = parent.instances
	}
	rows := w.rows(sp, parents, at)
	if len(w.stack) >= maxNesting {
		rows = w.collapse(sp, parents)
		fr.collapsed = true
		w.warnTooDeep(c)
	}
	for _, r := range rows {
		fr.instances = append(fr.instances, w.emit(c, sp, r.parent, r.title, r.dynamic, r.env))
	}
	w.stack = append(w.stack, fr)
}

// row is one record a call gives: its title under one parent instance
// with the bindings of one loop iteration.
type row struct {
	parent  instance
	env     *env
	title   string
	dynamic bool
}

// rows expands a call under each parent instance: once per iteration of
// the loops and callbacks between the parent and the call (bars), and per
// .each row. A loop it cannot expand leaves one dynamic record; past
// maxRows each parent gets one dynamic record.
func (w *walker) rows(sp spec, parents []instance, at int) []row {
	bars := w.lin.barriersBelow(at)
	var out []row
	for _, p := range parents {
		envs, ok := w.contexts(bars, p.env)
		if !ok {
			envs = []*env{p.env}
		}
		for _, e := range envs {
			w.env = e
			if !w.reached(at) {
				continue // an if around the call is false in this iteration
			}
			titles, named, args := w.titles(sp)
			for i, t := range titles {
				re := e
				if i < len(args) {
					re = w.rowEnv(sp, args[i], e)
				}
				out = append(out, row{parent: p, env: re, title: t, dynamic: i >= named || !ok})
			}
			if len(out) > maxRows {
				w.env = nil
				return w.collapse(sp, parents)
			}
		}
	}
	w.env = nil
	return out
}

// collapse is one dynamic record per parent instance.
func (w *walker) collapse(sp spec, parents []instance) []row {
	out := make([]row, len(parents))
	for i, p := range parents {
		out[i] = row{parent: p, env: p.env, title: w.dynamicTitle(sp), dynamic: true}
	}
	return out
}

// warnTooDeep warns, once per file, that records past maxNesting are cut.
func (w *walker) warnTooDeep(c *sitter.Node) {
	if w.tooDeep {
		return
	}
	w.tooDeep = true
	w.problems = append(w.problems, testdex.Problem{Severity: testdex.SevWarning, Line: int(c.StartPoint().Row) + 1,
		Message: fmt.Sprintf("describe and test blocks nested more than %d deep; from this line the deeper ones are listed as one dynamic record (flatten the nesting)", maxNesting)})
}

// emit records one instance of a call under one parent instance.
func (w *walker) emit(c *sitter.Node, sp spec, p instance, title string, dyn bool, e *env) instance {
	in := instance{key: title, spaced: title, record: true, dynamic: dyn || p.dynamic, skip: sp.skip || p.skip,
		only: sp.only || p.only, cond: sp.cond || p.cond, test: !sp.suite, env: e}
	if p.record {
		in.key, in.spaced = p.key+" > "+title, p.spaced+" "+title
	}
	in.run = selector(w.fw, in.spaced, title, sp.suite)
	if in.dynamic || (w.fw == testdex.NodeTest && p.record && p.test) {
		// node --test-name-pattern skips a test whose own name does not
		// match, and with it the subtests its body would start; a
		// matching test runs all of them: a subtest is selected by its
		// outermost test, siblings included.
		in.run = p.run
	}
	kind := testdex.KindTest
	switch {
	case sp.suite:
		kind = testdex.KindSuite
	case sp.subtest:
		kind = testdex.KindSubtest
	}
	line := int(c.StartPoint().Row) + 1
	if w.origEnd > 0 && c.StartByte() >= w.origEnd {
		if w.site == 0 {
			return in // an appended helper's body, not where it is called
		}
		line = w.site
	}
	if first, dup := w.seen[in.key]; dup {
		if in.dynamic || kind == testdex.KindSuite {
			return in // one record stands for them all
		}
		w.problems = append(w.problems, duplicateProblem(in.key, first, line))
	} else {
		w.seen[in.key] = line
	}
	t := lang.Test{Kind: kind, Name: in.key, Parent: p.key, Line: line,
		Dynamic: in.dynamic, Skip: in.skip, Only: in.only, Run: in.run}
	if sp.table != nil {
		t.Variant = "each"
	}
	if in.cond && !in.skip {
		t.Tags = []string{condTag}
	}
	w.tests = append(w.tests, t)
	return in
}

// condTag marks a record a condition known only at run time may skip:
// (cond ? describe : describe.skip), test.skipIf(cond), test.runIf(cond).
const condTag = "skipif"

func same(a, b *sitter.Node) bool {
	return a.StartByte() == b.StartByte() && a.EndByte() == b.EndByte() && a.Symbol() == b.Symbol()
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// params lists a callback's simple parameter names.
func (w *walker) params(fn *sitter.Node) []string {
	if fn == nil {
		return nil
	}
	if p := fn.ChildByFieldName("parameter"); p != nil { // t => ...
		return []string{w.text(p)}
	}
	ps := fn.ChildByFieldName("parameters")
	if ps == nil {
		return nil
	}
	var out []string
	for i := 0; i < int(ps.NamedChildCount()); i++ {
		p := ps.NamedChild(i)
		if pat := p.ChildByFieldName("pattern"); pat != nil {
			p = pat
		}
		if p.Type() == "identifier" {
			out = append(out, w.text(p))
		}
	}
	return out
}

// duplicateProblem warns of a test declared again under a name already
// listed: the runners run and report both, so both are listed, under one
// ID (the name is the ID's key).
func duplicateProblem(key string, first, line int) testdex.Problem {
	where := fmt.Sprintf("lines %d and %d", first, line)
	if first == line {
		where = fmt.Sprintf("line %d, twice", line)
	}
	return testdex.Problem{Severity: testdex.SevWarning, Line: line,
		Message: fmt.Sprintf("duplicate test name %q (%s): both are listed, with one ID, and running it runs both (give them distinct titles)", key, where)}
}

// runsOnLoad reports whether the call being visited runs when its file
// is loaded, under the parent at lineage index at: no function stands
// between them but loop callbacks and functions called where they are
// written.
func (w *walker) runsOnLoad(at int) bool {
	for _, b := range w.lin.barriersBelow(at) {
		if !w.iterationBarrier(b) {
			return false
		}
	}
	return true
}
