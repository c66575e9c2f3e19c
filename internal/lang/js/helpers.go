package js

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// A helper is a local function whose body declares tests, such as
// function suite(name) { describe(name, () => { it('works') }) }. Its
// tests exist once per call, under the caller's suite, with the caller's
// arguments: the walker skips the body where it is declared and lists it
// at each call site instead (inline), with the parameters bound to the
// arguments. Only a helper whose every mention in the file is a direct
// call is inlined; one passed around may run anywhere, so its tests stay
// where they are declared, as dynamic records. An exported one is inlined
// at the calls of its own file.

// helperQuery finds function declarations and declarators; it matches
// single nodes, whose query state does not grow with the nesting.
const helperQuery = `(function_declaration) @d (variable_declarator) @d`

// maxInline bounds helpers inlined within helpers.
const maxInline = 4

// helperSet is the file's inlinable helpers.
type helperSet struct {
	byName map[string][]helperDef
	starts map[uint32]bool // the helpers' function nodes, by first byte
}

// helperDef is one helper and the block its name is visible in.
type helperDef struct {
	fn         *sitter.Node
	start, end uint32 // the declaring block
}

func (w *walker) helperSet() *helperSet {
	if w.helpers != nil {
		return w.helpers
	}
	w.helpers = &helperSet{byName: map[string][]helperDef{}, starts: map[uint32]bool{}}
	q, err := cachedQuery(w.lang, helperQuery)
	if err != nil {
		return w.helpers
	}
	found, exported := map[string][]helperDef{}, map[string]bool{}
	qc := sitter.NewQueryCursor()
	defer qc.Close()
	qc.Exec(q, w.root)
	for {
		m, ok := qc.NextMatch()
		if !ok {
			break
		}
		if len(m.Captures) != 1 {
			continue
		}
		name, fn := w.definition(m.Captures[0].Node)
		if fn == nil || !w.declaresTests(fn) {
			continue
		}
		block := fn.Parent() // the declaration's block, or its export
		if fn.Type() != "function_declaration" && block != nil && block.Parent() != nil {
			block = block.Parent().Parent() // declarator, declaration, block
		}
		if block != nil && block.Type() == "export_statement" {
			// Callable from other files too: listed at its calls here, and
			// only when it has some (an importer's calls are its own).
			exported[name] = true
			block = block.Parent()
		}
		if block == nil {
			continue
		}
		found[name] = append(found[name], helperDef{fn: fn, start: block.StartByte(), end: block.EndByte()})
	}
	if len(found) == 0 {
		return w.helpers
	}
	calls, mentioned := w.mentions(found)
	for name, defs := range found {
		if mentioned == nil || mentioned[name] != calls[name]+len(defs) || (exported[name] && calls[name] == 0) {
			continue // mentioned other than by a call: it may run anywhere
		}
		w.helpers.byName[name] = defs
		for _, d := range defs {
			w.helpers.starts[d.fn.StartByte()] = true
		}
	}
	return w.helpers
}

// definition returns the name and function of a function declaration or
// of a declarator binding a function; fn is nil for anything else.
func (w *walker) definition(d *sitter.Node) (string, *sitter.Node) {
	id := d.ChildByFieldName("name")
	if id == nil || id.Type() != "identifier" {
		return "", nil
	}
	if d.Type() == "function_declaration" {
		return w.text(id), d
	}
	if v := d.ChildByFieldName("value"); v != nil && isFunction(v.Type()) {
		return w.text(id), v
	}
	return "", nil
}

// mentions counts the identifiers of each name in want, wherever they
// stand (a declaration, a call, a value passed on or exported), and
// among them the direct calls name(...). mentioned is nil when the
// query fails.
func (w *walker) mentions(want map[string][]helperDef) (calls, mentioned map[string]int) {
	calls, mentioned = map[string]int{}, map[string]int{}
	q, err := cachedQuery(w.lang, mentionQuery)
	if err != nil {
		return nil, nil
	}
	for c := range tsgrammars.CaptureNodes(q, w.root) {
		name := w.text(c)
		if want[name] == nil {
			continue
		}
		if p := c.Parent(); w.appended[name] && p != nil && (p.Type() == "import_specifier" || p.Type() == "import_clause") {
			continue // the import an appended helper stands for
		}
		mentioned[name]++
		if p := c.Parent(); p != nil && p.Type() == "call_expression" {
			if f := p.ChildByFieldName("function"); f != nil && same(f, c) {
				calls[name]++
			}
		}
	}
	return calls, mentioned
}

// mentionQuery matches single nodes: every identifier, and the shorthand
// property {name} that passes a function on without an identifier node.
const mentionQuery = `(identifier) @i (shorthand_property_identifier) @i`

// declaresTests reports whether a function's body calls a test function.
func (w *walker) declaresTests(fn *sitter.Node) bool {
	for c := range tsgrammars.CaptureNodes(w.q, fn) {
		f := c.ChildByFieldName("function")
		if f == nil {
			continue
		}
		bs, ok := w.branches(f, 0)
		if !ok {
			continue
		}
		for _, b := range bs {
			if _, ok := w.canonical(b.base); ok {
				return true
			}
		}
	}
	return false
}

// insideHelper reports whether the call being visited lies in an
// inlinable helper below the parent at index at: it is listed where the
// helper is called.
func (w *walker) insideHelper(at int) bool {
	l := w.lin
	b := l.path[len(l.path)-1].barrier
	for b > at {
		// Only a declared function or one bound by a declarator can be a helper.
		named := l.path[b].typ == "function_declaration" || l.path[b-1].typ == "variable_declarator"
		if named && w.helperSet().starts[l.path[b].node.StartByte()] {
			return true
		}
		b = l.path[b-1].barrier
	}
	return false
}

// inline lists the tests of a helper called at c under the parent's
// instances: once per call, per iteration of the loops around the call,
// with the helper's parameters bound to the arguments' values.
func (w *walker) inline(c *sitter.Node, parent *frame, at int) {
	name, local := w.helperCallee(c)
	if name == "" {
		return
	}
	if _, imported := w.imports[local]; imported && w.importValues == nil && (parent == nil || !parent.test) && w.runsOnLoad(at) {
		w.needHelpers = true // an imported function called while tests are collected may declare some
	}
	def, ok := w.helperFor(c, name)
	if !ok {
		w.unreadHelper(c, name, local, parent)
		return
	}
	for _, s := range w.inlining {
		if s == def.fn.StartByte() {
			return // recursion: the outer call lists the body
		}
	}
	parents := w.topInstances()
	if parent != nil {
		parents = parent.instances
	}
	seeds := w.seeds(c, def.fn, parents, w.lin.barriersBelow(at))
	cw := w.child(def.fn)
	defer cw.close()
	if w.origEnd > 0 && c.StartByte() < w.origEnd {
		cw.site = int(c.StartPoint().Row) + 1
	}
	if !cw.lin.moveTo(def.fn) {
		return
	}
	fr := &frame{node: def.fn, at: len(cw.lin.path) - 1, end: def.fn.EndByte(), instances: seeds}
	if parent != nil {
		fr.test, fr.params = parent.test, parent.params
	}
	cw.stack = []*frame{fr}
	cw.runIn(w.q, w.calls, def.fn)
	w.tests = append(w.tests, cw.tests...)
	w.needImports = w.needImports || cw.needImports
	w.needHelpers = w.needHelpers || cw.needHelpers
	w.needDirs = cw.needDirs
	w.problems = append(w.problems, cw.problems...)
	w.loads = append(w.loads, cw.loads...)
}

// helperCallee names the helper a call may call: f(...) is f, and
// m.f(...) of a whole imported module m is m$f, the name linkImports
// appends its f under (see withHelpers); local is the binding called or
// whose member is. "" when the callee is neither.
func (w *walker) helperCallee(c *sitter.Node) (name, local string) {
	f := c.ChildByFieldName("function")
	if f == nil {
		return "", ""
	}
	switch f.Type() {
	case "identifier":
		return w.text(f), w.text(f)
	case "member_expression":
		obj, prop := f.ChildByFieldName("object"), f.ChildByFieldName("property")
		if obj == nil || prop == nil || obj.Type() != "identifier" || prop.Type() != "property_identifier" {
			return "", ""
		}
		if r, ok := w.imports[w.text(obj)]; ok && r.Name == "*" {
			return w.text(obj) + "$" + w.text(prop), w.text(obj)
		}
	}
	return "", ""
}

// helperFor finds the helper name refers to at c: the one declared in
// the innermost block holding c.
func (w *walker) helperFor(c *sitter.Node, name string) (helperDef, bool) {
	var best helperDef
	found := false
	for _, d := range w.helperSet().byName[name] {
		if d.start <= c.StartByte() && c.EndByte() <= d.end && (!found || d.start > best.start) {
			best, found = d, true
		}
	}
	return best, found
}

// seeds are the parent instances a helper's body runs under: each with
// the parameters bound, per iteration around the call. A call whose
// loops or arguments cannot be read leaves the parent dynamic, so the
// helper's tests are one dynamic record under it.
func (w *walker) seeds(c, fn *sitter.Node, parents []instance, bars []int) []instance {
	var out []instance
	params := w.paramNodes(fn)
	args := c.ChildByFieldName("arguments")
	for _, p := range parents {
		envs, ok := w.contexts(bars, p.env)
		if !ok || len(w.inlining) >= maxInline {
			out = append(out, dynamicSeed(p))
			continue
		}
		for _, e := range envs {
			s := p
			s.env, ok = w.bindArgs(params, args, fn.StartByte(), e, nil)
			if !ok {
				s = dynamicSeed(p)
			}
			out = append(out, s)
		}
		if len(out) > maxRows {
			out = out[:0]
			for _, p := range parents {
				out = append(out, dynamicSeed(p))
			}
			return out
		}
	}
	return out
}

func dynamicSeed(p instance) instance {
	p.dynamic, p.env = true, nil
	return p
}

// bindArgs binds a function's parameters to the call's arguments
// evaluated in e, onto base: nil for a helper, which sees its own scope
// and not the caller's loop variables; the loop's bindings for a function
// called where it is written.
func (w *walker) bindArgs(params []*sitter.Node, args *sitter.Node, scope uint32, e, base *env) (*env, bool) {
	var argv []value
	for i := 0; args != nil && i < int(args.NamedChildCount()); i++ {
		a := args.NamedChild(i)
		switch a.Type() {
		case "comment":
			continue
		case "spread_element":
			return nil, false
		}
		argv = append(argv, w.evalIn(a, e))
	}
	out := base
	for i, p := range params {
		v := value{kind: kUndefined}
		if i < len(argv) {
			v = argv[i]
		}
		if p.Type() == "rest_pattern" {
			return out, false
		}
		var ok bool
		if out, ok = w.bindPattern(p, v, scope, out); !ok {
			return nil, false
		}
	}
	return out, true
}

// child is a walker over one helper's body, sharing the file's state and
// its record set.
func (w *walker) child(fn *sitter.Node) *walker {
	w.mutated("") // scanned once, shared with the child
	w.onlyCalled("")
	cw := *w
	cw.lin = newLineage(w.root)
	cw.stack, cw.tests, cw.problems, cw.env, cw.loads = nil, nil, nil, nil, nil
	cw.inlining = append(append([]uint32(nil), w.inlining...), fn.StartByte())
	cw.limit = fn.EndByte()
	cw.evaluating = map[string]bool{}
	cw.host = cw.hostFact // the child's bindings, not w's
	return &cw
}

// unreadHelper lists, once linked, a call of an imported function that
// declares tests but could not be appended to the file (a TypeScript
// function called from a JavaScript file does not parse there) as one
// dynamic record under each parent, with a warning: its tests are not
// silently missing.
func (w *walker) unreadHelper(c *sitter.Node, name, local string, parent *frame) {
	if w.importValues == nil || w.appended[name] {
		return
	}
	v, ok := w.importValues[local]
	if !ok {
		return
	}
	h := v.helper
	if name != local { // m.f(...)
		ns := v
		if v.props != nil {
			ns = *v.props
		}
		h = member(ns, strings.TrimPrefix(name, local+"$")).helper
	}
	if h == "" {
		return
	}
	parents := w.topInstances()
	if parent != nil {
		parents = parent.instances
	}
	line := int(c.StartPoint().Row) + 1
	for _, p := range parents {
		w.emitLoadNamed(compact(w.text(c)), line, p)
	}
	w.problems = append(w.problems, testdex.Problem{Severity: testdex.SevWarning, Line: line,
		Message: "the tests this call's imported function declares cannot be listed: its source cannot be read into this file (TypeScript called from JavaScript?); they are one dynamic record"})
}
