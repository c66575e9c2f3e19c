package js

import (
	"regexp"
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// spec is a call recognised as declaring a suite or a test.
type spec struct {
	base    string // canonical function: describe, it, test, ...
	subtest bool   // node:test's t.test inside a test callback
	suite   bool
	skip    bool
	only    bool         // focused: .only, fit, fdescribe
	name    *sitter.Node // the title argument
	fn      *sitter.Node // the callback, nil when absent
	table   *sitter.Node // .each/.for argument list or tagged template
	forRows bool         // .for: a row is the callback's one argument, never spread
	cond    bool         // skipped or not by a condition known only at run time
}

// globals are the functions each framework provides without an import.
var globals = map[testdex.Framework][]string{
	testdex.Jest:     {"describe", "fdescribe", "xdescribe", "it", "fit", "xit", "test", "xtest"},
	testdex.Vitest:   {"describe", "suite", "it", "test"},
	testdex.Mocha:    {"describe", "context", "xdescribe", "xcontext", "it", "specify", "xit", "xspecify", "suite", "test"},
	testdex.NodeTest: {"describe", "suite", "it", "test"},
}

// suites are the canonical functions that declare a suite.
var suites = map[string]bool{"describe": true, "fdescribe": true, "xdescribe": true, "context": true, "xcontext": true, "suite": true}

// modifiers are the chained properties that keep a call a test
// declaration; skipping ones set Skip.
var modifiers = map[string]bool{"only": true, "skip": true, "todo": true, "concurrent": true, "fails": true,
	"sequential": true, "failing": true, "shuffle": true}

// testModules are the imports that provide test functions.
var testModules = map[string]bool{"node:test": true, "test": true, "vitest": true, "@jest/globals": true, "mocha": true}

// classify recognises a test-declaring call.
func (w *walker) classify(c *sitter.Node) (spec, bool) {
	var sp spec
	if p := w.lin.parentOf(); p != nil && p.Type() == "call_expression" {
		if f := p.ChildByFieldName("function"); f != nil && same(f, c) {
			return sp, false // the inner half of describe.each(table)(...)
		}
	}
	fn, args := c.ChildByFieldName("function"), c.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.Type() != "arguments" {
		return sp, false
	}
	if fn.Type() == "call_expression" {
		inner := fn.ChildByFieldName("function")
		if inner == nil {
			return sp, false
		}
		bs, ok := w.branches(inner, 0)
		if !ok {
			return sp, false
		}
		for i := range bs {
			mods := bs[i].mods
			if len(mods) == 0 {
				return sp, false
			}
			switch mods[len(mods)-1] {
			case "each", "for":
				sp.table = fn.ChildByFieldName("arguments")
				sp.forRows = mods[len(mods)-1] == "for"
			case "skipIf", "runIf":
				sp.cond = true
			default:
				return sp, false
			}
			bs[i].mods = mods[:len(mods)-1]
		}
		return w.finish(sp, bs, args)
	}
	bs, ok := w.branches(fn, 0)
	if !ok {
		return sp, false
	}
	return w.finish(sp, bs, args)
}

// callee is one function a call may invoke: a base name and the chained
// properties after it. cond is true when a ternary chose it.
type callee struct {
	base string
	mods []string
	cond bool
}

// maxAliasDepth bounds how many const aliases are followed (t2 = t1 = test).
const maxAliasDepth = 4

// branches splits a callee expression into the functions it may be:
// test.concurrent.only is one; (cond ? describe : describe.skip) and an
// alias bound to such a ternary are two.
func (w *walker) branches(n *sitter.Node, depth int) ([]callee, bool) {
	if n == nil || depth > maxAliasDepth {
		return nil, false
	}
	switch n.Type() {
	case "identifier":
		name := w.text(n)
		if d := w.blockBinding(n, name); d != nil {
			// A block's own binding (const describe = schema.describe in
			// a test's body) shadows the module's and the global: what it
			// holds decides (globalThis.it is the global it).
			if g, p, ok := strings.Cut(w.text(d), "."); ok && d.Type() == "member_expression" && globalObjects[g] && !strings.ContainsAny(p, ".[(") {
				return []callee{{base: p}}, true
			}
			return w.branches(d, depth+1)
		}
		if v, ok := w.calleeAliases[name]; ok {
			return w.branches(v, depth+1)
		}
		return []callee{{base: name}}, true
	case "member_expression":
		p := n.ChildByFieldName("property")
		if p == nil || p.Type() != "property_identifier" {
			return nil, false
		}
		obj := n.ChildByFieldName("object")
		if obj != nil && obj.Type() == "identifier" {
			if qualified := w.text(obj) + "." + w.text(p); w.aliases[qualified] != "" {
				return []callee{{base: qualified}}, true // ns.describe of a namespace import
			}
		}
		bs, ok := w.branches(obj, depth)
		if !ok {
			return nil, false
		}
		out := make([]callee, len(bs))
		for i, b := range bs {
			if len(b.mods) >= 4 {
				return nil, false
			}
			out[i] = callee{base: b.base, mods: append(append([]string(nil), b.mods...), w.text(p)), cond: b.cond}
		}
		return out, true
	case "parenthesized_expression":
		if n.NamedChildCount() == 1 {
			return w.branches(n.NamedChild(0), depth)
		}
	case "sequence_expression": // (0, ns.test): the last operand is the callee
		if k := int(n.NamedChildCount()); k > 0 {
			for i := 0; i < k-1; i++ {
				if n.NamedChild(i).Type() != "number" {
					return nil, false
				}
			}
			return w.branches(n.NamedChild(k-1), depth)
		}
	case "ternary_expression":
		a, okA := w.branches(n.ChildByFieldName("consequence"), depth+1)
		b, okB := w.branches(n.ChildByFieldName("alternative"), depth+1)
		if !okA || !okB {
			return nil, false
		}
		out := append(append([]callee(nil), a...), b...)
		for i := range out {
			out[i].cond = true
		}
		return out, true
	}
	return nil, false
}

// canonical is the test function a base name stands for.
func (w *walker) canonical(base string) (string, bool) {
	if canon, ok := w.aliases[base]; ok {
		return canon, canon != "" // "": bound to another runner's function
	}
	if contains(globals[w.fw], base) && !w.helperShadows(base) && !w.inertShadows(base) {
		return base, true
	}
	return "", false
}

// blockBinding is the value of a declaration of name in a block around n
// (see localConst), nil when there is none. Only the names that matter
// are looked up: those a declarator below the top level binds that are a
// test function's name, or whose value may be one (an identifier, a
// member, a choice of two naming one: const t = it).
func (w *walker) blockBinding(n *sitter.Node, name string) *sitter.Node {
	if w.declared == nil {
		w.declared = map[string]bool{}
		q, err := cachedQuery(w.lang, `(variable_declarator name: (identifier) @n)`)
		if err != nil {
			return nil
		}
		for c := range tsgrammars.CaptureNodes(q, w.root) {
			d := c.Parent().Parent()
			if d == nil || d.Parent() == nil || d.Parent().ID() == w.root.ID() {
				continue
			}
			if id := w.text(c); contains(testNames, id) || w.mayNameTest(c.Parent().ChildByFieldName("value")) {
				w.declared[id] = true
			}
		}
	}
	if !w.declared[name] {
		return nil
	}
	d, _ := w.localConst(n, name)
	return d
}

// mayNameTest reports whether an expression may name a test function: an
// identifier, member or choice whose text holds a test function's name
// or an alias's.
func (w *walker) mayNameTest(v *sitter.Node) bool {
	if v == nil {
		return false
	}
	switch v.Type() {
	case "identifier", "member_expression", "ternary_expression", "parenthesized_expression":
	default:
		return false
	}
	t := w.text(v)
	for _, name := range testNames {
		if strings.Contains(t, name) {
			return true
		}
	}
	for a := range w.aliases {
		if strings.Contains(t, a) {
			return true
		}
	}
	return false
}

// globalObjects name the global object.
var globalObjects = map[string]bool{"globalThis": true, "global": true, "window": true, "self": true}

// inertBuiltins are the globals an inert function may call: none
// declares a test.
var inertBuiltins = map[string]bool{"JSON": true, "String": true, "Number": true, "Boolean": true,
	"Object": true, "Array": true, "Math": true, "Symbol": true, "BigInt": true, "Date": true, "RegExp": true,
	"Error": true, "TypeError": true, "parseInt": true, "parseFloat": true, "isNaN": true, "isFinite": true,
	"encodeURI": true, "encodeURIComponent": true, "decodeURI": true, "decodeURIComponent": true}

// inertShadows reports whether a top-level function of the file takes a
// global test function's name and declares no test for certain (function
// describe(v) { return JSON.stringify(v) } in a Vitest file): its body
// names no test function, nor a global object, and calls only the
// builtins above (a call of anything else might reach a test function
// kept aside). Its calls are then not the global's.
func (w *walker) inertShadows(name string) bool {
	if !w.functions[name] || w.redeclared[name] {
		return false
	}
	fn := w.fnDecls[name]
	if fn == nil {
		fn = w.consts[name]
	}
	if fn == nil {
		fn = w.vars[name]
	}
	if fn == nil {
		return false
	}
	if w.inert == nil {
		w.inert = map[string]bool{}
	}
	if v, ok := w.inert[name]; ok {
		return v
	}
	inert := w.inertFunction(fn)
	w.inert[name] = inert
	return inert
}

// inertFunction reports whether the function fn declares no test for
// certain (see inertShadows).
func (w *walker) inertFunction(fn *sitter.Node) bool {
	inert := true
	q, err := cachedQuery(w.lang, `(identifier) @i (property_identifier) @i (shorthand_property_identifier) @i`)
	if err != nil {
		return false
	}
	for c := range tsgrammars.CaptureNodes(q, fn) {
		if t := w.text(c); contains(testNames, t) || globalObjects[t] {
			if id := fn.ChildByFieldName("name"); id == nil || id.ID() != c.ID() {
				inert = false
				break
			}
		}
	}
	if calls, err := cachedQuery(w.lang, `(call_expression function: (_) @f) (new_expression constructor: (_) @f)`); err != nil {
		inert = false
	} else {
		for c := range tsgrammars.CaptureNodes(calls, fn) {
			for c.Type() == "member_expression" && c.ChildByFieldName("object") != nil {
				c = c.ChildByFieldName("object")
			}
			if c.Type() != "identifier" || !inertBuiltins[w.text(c)] || w.fnDecls[w.text(c)] != nil || w.consts[w.text(c)] != nil || w.vars[w.text(c)] != nil {
				inert = false
				break
			}
		}
	}
	return inert
}

// blockFunction is the function a block around call c declares under the
// name c calls (function test(opt) { it(...) } in a describe's callback:
// hash.js), which shadows the runner's function of the name there; nil
// when none does or c's callee is not a bare name.
func (w *walker) blockFunction(c *sitter.Node) *sitter.Node {
	fn := c.ChildByFieldName("function")
	if fn == nil || fn.Type() != "identifier" {
		return nil
	}
	name := w.text(fn)
	path := w.lin.path // c's ancestors (Node.Parent walks from the root)
	if len(path) == 0 || path[len(path)-1].node.ID() != c.ID() {
		return nil
	}
	for k := len(path) - 2; k >= 0; k-- {
		b := path[k].node
		if path[k].typ != "statement_block" {
			continue
		}
		if w.blockFns == nil {
			w.blockFns = map[uintptr]map[string]*sitter.Node{}
		}
		decls, ok := w.blockFns[b.ID()]
		if !ok {
			decls = map[string]*sitter.Node{}
			for i := 0; i < int(b.NamedChildCount()); i++ {
				if d := b.NamedChild(i); d.Type() == "function_declaration" {
					if id := d.ChildByFieldName("name"); id != nil {
						decls[w.text(id)] = d
					}
				}
			}
			w.blockFns[b.ID()] = decls
		}
		if d := decls[name]; d != nil {
			return d
		}
	}
	return nil
}

// shadowedByBlock reports whether call c, taken for a test function's,
// calls a function a block around it declares instead, which is then
// inlined as any helper is: when that function declares tests (a helper),
// when it certainly declares none (see inertFunction), or when c is in a
// test's body, where a test declared while another runs is not collected
// whatever the function does (Jest and Vitest fail the test; Mocha's
// listing has no place for it: hash.js's function test(fn, cases) called
// in its tests; node:test makes it a subtest, so not there). Otherwise c
// still stands for the runner's function.
func (w *walker) shadowedByBlock(c *sitter.Node, parent *frame) bool {
	d := w.blockFunction(c)
	if d == nil {
		return false
	}
	return w.declaresTests(d) || w.inertFunction(d) || parent != nil && parent.test && w.fw != testdex.NodeTest
}

// helperShadows reports whether a top-level function of the file takes a
// global test function's name and is a helper declaring tests itself
// (function suite(name) { describe(name, ...) } in Vitest): its calls are
// inlined, not taken for the global. A wrapper that declares nothing
// through the file's test functions (function it(n, f) { global.it(n,
// ...) }) still stands for the global, as the runner then lists it.
func (w *walker) helperShadows(name string) bool {
	return w.functions[name] && w.q != nil && len(w.helperSet().byName[name]) > 0
}

// finish completes a spec from the callee's branches and the arguments.
// Every branch must be a test function of one kind (suite or test); the
// call is skipped when all branches skip, and conditionally skipped
// (cond) when only some do.
func (w *walker) finish(sp spec, bs []callee, args *sitter.Node) (spec, bool) {
	skips, onlys := 0, 0
	for i, b := range bs {
		one, ok := w.resolve(b)
		if !ok || (i > 0 && (one.suite != sp.suite || one.subtest || sp.subtest)) {
			return sp, false
		}
		if i == 0 {
			sp.base, sp.subtest, sp.suite = one.base, one.subtest, one.suite
		}
		if one.skip {
			skips++
		}
		if one.only {
			onlys++
		}
	}
	sp.skip = skips == len(bs)
	sp.only = onlys == len(bs)
	sp.cond = sp.cond || (skips > 0 && !sp.skip)
	for i := 0; i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		switch {
		case a.Type() == "comment":
		case sp.name == nil:
			sp.name = a
		case sp.fn == nil && isFunction(a.Type()):
			sp.fn = a
		case a.Type() == "object":
			sp.skip = sp.skip || w.skipOption(a)
		}
	}
	if sp.name == nil {
		return sp, false
	}
	if sp.fn == nil && w.fw == testdex.Mocha && !sp.suite {
		sp.skip = true // a pending test
	}
	return sp, true
}

// resolve reads one branch: its canonical function, whether it is a
// node:test subtest (t.test), a suite, and skipped by its modifiers.
func (w *walker) resolve(b callee) (spec, bool) {
	var sp spec
	mods := b.mods
	canon, ok := w.canonical(b.base)
	if !ok {
		if w.fw != testdex.NodeTest || len(mods) == 0 || mods[0] != "test" {
			return sp, false
		}
		sp.subtest, canon, mods = true, "test", mods[1:]
	}
	sp.base = b.base
	for _, m := range mods {
		if !modifiers[m] {
			return sp, false
		}
		sp.skip = sp.skip || m == "skip" || m == "todo"
		sp.only = sp.only || m == "only"
	}
	sp.suite = suites[canon]
	sp.skip = sp.skip || strings.HasPrefix(canon, "x")
	sp.only = sp.only || canon == "fit" || canon == "fdescribe"
	return sp, true
}

func isFunction(t string) bool {
	switch t {
	case "arrow_function", "function_expression", "function", "generator_function":
		return true
	}
	return false
}

// titles returns the call's titles: one, or one per .each row; those
// from index named on are dynamic records, standing for titles that could
// not be known without running the code (one for all the rows of a table
// it cannot name).
func (w *walker) titles(sp spec) ([]string, int, [][]value) {
	title := w.eval(sp.name, 0)
	if sp.table == nil {
		if title.isObject() && w.jasmine { // jest-jasmine2 keeps it, named by String(title)
			if s, ok := toStr(title); ok {
				return []string{s}, 1, nil
			}
		}
		if title.kind == kUnknown || title.isObject() {
			return []string{w.dynamicTitle(sp)}, 0, nil
		}
		return []string{title.jsString()}, 1, nil
	}
	if title.kind != kString || (w.fw != testdex.Jest && w.fw != testdex.Vitest) {
		return []string{w.dynamicTitle(sp)}, 0, nil
	}
	rows, template, ok := w.tableRows(sp.table)
	if !ok {
		return []string{title.str}, 0, nil
	}
	var out []string
	var named []bool
	switch {
	case w.fw == testdex.Vitest:
		out, named = vitestTitles(title.str, rows)
	case template:
		out, named = rowTitles(len(rows), func(i int) string { return jestInterpolate(title.str, rows[i], i) })
	default:
		out, named = jestArrayTitles(title.str, rows)
	}
	// The rows it can name are named; one dynamic record, last, stands
	// for the rows it cannot.
	var keep []string
	var args [][]value
	spread := !template && !sp.forRows
	for _, r := range rows {
		spread = spread && r.kind == kArray
	}
	for i, t := range out {
		if named[i] {
			keep = append(keep, t)
			if spread {
				args = append(args, rows[i].arr)
			} else {
				args = append(args, []value{rows[i]})
			}
		}
	}
	if len(keep) == len(out) && len(out) > 0 {
		return keep, len(keep), args
	}
	return append(keep, title.str), len(keep), args
}

// rowEnv binds the parameters of a .each or .for callback to one row's
// arguments (a table of arrays spreads each row; any other row, a
// template table's object and a .for row are one argument), so that the
// calls inside see them, as a loop's variable; e unchanged when a
// parameter cannot be bound (a rest element, a member target).
func (w *walker) rowEnv(sp spec, argv []value, e *env) *env {
	if sp.fn == nil || argv == nil {
		return e
	}
	e2 := e
	for k, p := range w.paramNodes(sp.fn) {
		if p.Type() == "rest_pattern" {
			return e
		}
		v := value{kind: kUndefined}
		if k < len(argv) {
			v = argv[k]
		}
		var ok bool
		if e2, ok = w.bindPattern(p, v, sp.fn.StartByte(), e2); !ok {
			return e
		}
	}
	return e2
}

// tableRows evaluates a .each argument: an array literal (or a const
// bound to one) or a tagged template table.
func (w *walker) tableRows(t *sitter.Node) (rows []value, template, ok bool) {
	if t.Type() == "template_string" {
		var header strings.Builder
		var cells []value
		for i := 0; i < int(t.NamedChildCount()); i++ {
			c := t.NamedChild(i)
			switch c.Type() {
			case "template_substitution":
				if c.NamedChildCount() == 0 {
					return nil, true, false
				}
				cells = append(cells, w.eval(c.NamedChild(0), 0))
			case "string_fragment":
				if len(cells) == 0 {
					header.WriteString(w.text(c))
				}
			}
		}
		rows = templateRows(header.String(), cells)
		return rows, true, len(rows) > 0
	}
	var arg *sitter.Node
	for i := 0; i < int(t.NamedChildCount()); i++ {
		if c := t.NamedChild(i); c.Type() != "comment" {
			arg = c
			break
		}
	}
	v := w.eval(arg, 0)
	return v.arr, false, v.kind == kArray
}

var spaceRE = regexp.MustCompile(`\s+`)

// dynamicTitle renders a title the source does not fix: a template
// literal keeps its text with ${x} shown as {x}; anything else is {source}.
func (w *walker) dynamicTitle(sp spec) string {
	n := sp.name
	if n.Type() == "template_string" {
		return w.sourceTitle(n)
	}
	if v := w.eval(n, 0); v.kind == kString && sp.table != nil {
		return v.str
	}
	return w.sourceTitle(n)
}

// sourceTitle renders an expression whose value is not known: a template
// literal keeps its text with ${x} shown as {x}; anything else is
// {source}.
func (w *walker) sourceTitle(n *sitter.Node) string {
	if w.origEnd > 0 && n.StartByte() >= w.origEnd { // an appended helper's, as its module writes it
		return strings.ReplaceAll(w.sourceTitleOf(n), "$m$", "")
	}
	return w.sourceTitleOf(n)
}

func (w *walker) sourceTitleOf(n *sitter.Node) string {
	if n.Type() != "template_string" {
		return "{" + compact(w.text(n)) + "}"
	}
	var b strings.Builder
	for i := 0; i < int(n.NamedChildCount()); i++ {
		c := n.NamedChild(i)
		switch c.Type() {
		case "template_substitution":
			b.WriteString("{" + compact(w.text(c)[2:len(w.text(c))-1]) + "}")
		default:
			b.WriteString(unescape(w.text(c), 0))
		}
	}
	return b.String()
}

func compact(s string) string {
	s = spaceRE.ReplaceAllString(strings.TrimSpace(s), " ")
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}

// runPattern is the native selector of a record: an anchored, escaped
// regular expression over the space-joined titles for Jest's and Vitest's
// -t and Mocha's --grep (a suite's pattern selects its tests), and over
// the test's own title for node --test-name-pattern.
func runPattern(fw testdex.Framework, titles []string, suite bool) string {
	return selector(fw, strings.Join(titles, " "), titles[len(titles)-1], suite)
}

// selector is runPattern given the space-joined titles and the last one.
func selector(fw testdex.Framework, full, last string, suite bool) string {
	if fw == testdex.NodeTest {
		full = last
	}
	if suite && fw != testdex.NodeTest {
		return "^" + regexp.QuoteMeta(full) + "( |$)"
	}
	return "^" + regexp.QuoteMeta(full) + "$"
}

// skipOption reports whether a node:test or Vitest options object says
// skip or todo with a literal true or string.
func (w *walker) skipOption(obj *sitter.Node) bool {
	v := w.eval(obj, 0)
	for _, k := range []string{"skip", "todo"} {
		if f, ok := v.field(k); ok && ((f.kind == kBool && f.b) || (f.kind == kString)) {
			return true
		}
	}
	return false
}
