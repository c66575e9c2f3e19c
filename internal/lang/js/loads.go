package js

import (
	"strings"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// A test file may load other files whose top level declares tests:
// describe('Units', () => { for (const f of fs.readdirSync(dir)) require(
// path.join(dir, f)) }). The runners register those tests where the load
// runs, under the describe around it, and name them after the test file
// (Mocha's test.file is the file it was loading). The walker notes each
// place that may do so (a load site): a require(...) or import(...) of
// local code, or a bare import './x.js', that runs while the tests are
// collected: at the top level of the file (for its effect only: a
// binding such as const h = require('./helpers') is a helper module), or
// in a describe callback, possibly in loops there; not in a test, a hook
// or any other function, which run later or not at all.
//
// Each site gives one dynamic record under each instance of its describe
// (its name is the call's source in braces; running it runs the
// describe), and a loadFact for the linker, with the files it loads when
// the source fixes them: a literal specifier, path.join(__dirname, 'x')
// and the like, or a readdirSync loop over a folder fixed by the source,
// its entries filtered by conditions the source spells out (see pred).
// The linker replaces the record by the loaded files' tests (see
// linkLoads) or keeps it with a warning saying why.

// loadFact is one load site.
type loadFact struct {
	Line   int    `json:"line"`
	Record string `json:"record"` // key of the dynamic record standing for the site
	Parent string `json:"parent,omitempty"`
	Spaced string `json:"spaced,omitempty"` // the parent's titles, space-joined
	Run    string `json:"run,omitempty"`
	Skip   bool   `json:"skip,omitempty"`
	Cond   bool   `json:"cond,omitempty"`
	Call   string `json:"call"` // the call's source, shortened
	// Files are the marked paths of the files loaded (see pathOf), Dir the
	// marked folder a readdirSync loop loads the entries of that Filter
	// keeps. Why says, when neither is known, what stopped the reading:
	// one of the why* constants.
	Files  []string `json:"files,omitempty"`
	Dir    string   `json:"dir,omitempty"`
	Filter *pred    `json:"filter,omitempty"`
	Why    string   `json:"why,omitempty"`
	// Uses is true when the loading file uses what the file exports
	// (require('./x')(), const f = require('./x')): it may call functions
	// that declare tests.
	Uses bool `json:"uses,omitempty"`
}

// The reasons a load site's files are not known.
const (
	whyComputed = "computed" // a specifier the source does not fix
	whyLoop     = "loop"     // a loop over data the source does not fix
	whyFilter   = "filter"   // a readdirSync loop whose conditions are not read
	whyImport   = "import"   // import() in a describe: it loads after the describe returns
	whyRepeated = "repeated" // one file loaded more than once: only the first load declares
	whyParent   = "parent"   // the describe's own title is not known
)

// loadCall recognises require(x), import(x) and await import(x); arg is
// the specifier, dyn is true for import().
func (w *walker) loadCall(c *sitter.Node) (arg *sitter.Node, dyn bool, ok bool) {
	fn, args := c.ChildByFieldName("function"), c.ChildByFieldName("arguments")
	if fn == nil || args == nil || args.Type() != "arguments" || args.NamedChildCount() == 0 {
		return nil, false, false
	}
	switch {
	case fn.Type() == "import":
		dyn = true
	case fn.Type() == "identifier" && w.text(fn) == "require":
		if args.NamedChildCount() != 1 {
			return nil, false, false
		}
	default:
		return nil, false, false
	}
	arg = args.NamedChild(0)
	if arg.Type() == "comment" || arg.Type() == "spread_element" {
		return nil, false, false
	}
	return arg, dyn, true
}

// loadSite handles a call that may be a load site, reporting whether it
// was a require or import call (so nothing else is made of it).
func (w *walker) loadSite(c *sitter.Node, parent *frame, at int) bool {
	arg, dyn, ok := w.loadCall(c)
	if !ok {
		return false
	}
	if parent != nil && parent.test {
		return true // loaded while a test runs: data
	}
	if !w.runsOnLoad(at) {
		return true // in a hook, a helper, a callback: runs later, if ever
	}
	bars := w.lin.barriersBelow(at)
	literal := arg.Type() == "string"
	if literal && !relative(unescape(w.text(arg), 1)) {
		return true // a package
	}
	if parent == nil && !w.effectOnly(c) {
		return true
	}
	if !literal && w.dataSpecifier(arg) {
		return true
	}
	parents := w.topInstances()
	if parent != nil {
		parents = parent.instances
	}
	facts := make([]loadFact, 0, len(parents))
	uses := !w.effectOnly(c)
	for _, p := range parents {
		f, site := w.resolveLoad(c, arg, dyn, bars, at, p, len(parents))
		if !site {
			return true
		}
		f.Uses = uses
		facts = append(facts, f)
	}
	for i, p := range parents {
		facts[i].Record = w.emitLoad(c, p)
		w.loads = append(w.loads, facts[i])
	}
	return true
}

// topInstances are the parents of the file's top-level calls: the module,
// or the describe a linked file is loaded in (see loadedExtractor).
func (w *walker) topInstances() []instance {
	if w.base != nil {
		return []instance{*w.base}
	}
	return []instance{{}}
}

// effectOnly reports whether a call's value is dropped: a statement of
// its own (require('./x'); await import('./x.js')), or the body of an
// arrow that an iteration callback is (files.forEach(f => require(f))).
func (w *walker) effectOnly(c *sitter.Node) bool {
	l := w.lin
	i := len(l.path) - 2
	for i >= 0 && (l.path[i].typ == "await_expression" || l.path[i].typ == "parenthesized_expression") {
		i--
	}
	if i < 0 {
		return false
	}
	switch l.path[i].typ {
	case "expression_statement":
		return true
	case "arrow_function":
		body := l.path[i].node.ChildByFieldName("body")
		return body != nil && i+1 < len(l.path) && same(body, l.path[i+1].node) && w.iterationBarrier(i)
	}
	return false
}

// iterationMethods are the array methods whose callback runs during the
// call, once per element.
var iterationMethods = map[string]bool{"forEach": true, "map": true, "flatMap": true, "filter": true,
	"some": true, "every": true, "reduce": true, "find": true}

// iterationBarrier reports whether the lineage step at index b runs
// where it stands, during the collection of tests: a loop, a callback of
// an array iteration method, a function called where it is written.
func (w *walker) iterationBarrier(b int) bool {
	s := w.lin.path[b]
	if loops[s.typ] {
		return true
	}
	switch s.typ {
	case "arrow_function", "function_expression", "function":
	default:
		return false
	}
	if b >= 2 && w.lin.path[b-1].typ == "arguments" && w.lin.path[b-2].typ == "call_expression" {
		callee := w.lin.path[b-2].node.ChildByFieldName("function")
		if callee != nil && callee.Type() == "member_expression" {
			p := callee.ChildByFieldName("property")
			return p != nil && iterationMethods[w.text(p)]
		}
		return false
	}
	i := b - 1
	for i >= 0 && w.lin.path[i].typ == "parenthesized_expression" {
		i--
	}
	if i < 0 || w.lin.path[i].typ != "call_expression" {
		return false
	}
	f := w.lin.path[i].node.ChildByFieldName("function")
	return f != nil && same(f, w.lin.path[i+1].node) // (function () { ... })()
}

// emitLoad lists a load site's dynamic record under one parent instance
// and returns its key.
func (w *walker) emitLoad(c *sitter.Node, p instance) string {
	return w.emitLoadNamed(compact(w.text(c)), int(c.StartPoint().Row)+1, p)
}

// emitLoadNamed is emitLoad given the call's source and line.
func (w *walker) emitLoadNamed(call string, line int, p instance) string {
	title := "{" + call + "}"
	key := title
	if p.record {
		key = p.key + " > " + title
	}
	if _, dup := w.seen[key]; dup {
		return key
	}
	w.seen[key] = line
	t := lang.Test{Kind: testdex.KindTest, Name: key, Parent: p.key, Line: line, Dynamic: true, Skip: p.skip, Run: p.run}
	if p.cond && !p.skip {
		t.Tags = []string{condTag}
	}
	w.tests = append(w.tests, t)
	return key
}

// resolveLoad reads what a load site loads under one parent instance.
// site is false when it loads nothing local after all (a path that node
// looks up in node_modules).
func (w *walker) resolveLoad(c, arg *sitter.Node, dyn bool, bars []int, at int, p instance, parents int) (f loadFact, site bool) {
	f = loadFact{Line: int(c.StartPoint().Row) + 1, Spaced: p.spaced, Run: p.run, Skip: p.skip, Cond: p.cond,
		Call: compact(w.text(c))}
	if p.record {
		f.Parent = p.key
	}
	defer func() { w.env = nil }()
	switch {
	case p.dynamic:
		f.Why = whyParent
		return f, true
	case dyn && (p.record || !w.awaited()):
		f.Why = whyImport
		return f, true
	}
	if len(bars) == 1 && w.readdirLoop(bars[0]) != nil {
		return w.resolveReaddir(f, arg, bars[0], p, parents)
	}
	envs, ok := w.contexts(bars, p.env)
	if !ok {
		f.Why = whyLoop
		return f, true
	}
	seen := map[string]bool{}
	for _, e := range envs {
		w.env = e
		if !w.reached(at) {
			continue
		}
		s, ok := w.pathOf(arg, "", 0)
		if !ok {
			f.Why, f.Files = whyComputed, nil
			return f, true
		}
		file := moduleFile(s)
		if file == "" {
			return f, false
		}
		if seen[file] || parents > 1 {
			f.Why, f.Files = whyRepeated, nil
			return f, true
		}
		seen[file] = true
		f.Files = append(f.Files, file)
	}
	return f, true
}

// awaited reports whether the call being visited is awaited (await
// import('./x.js')): a module's top-level await finishes before the
// framework moves on.
func (w *walker) awaited() bool {
	l := w.lin
	return len(l.path) >= 2 && l.path[len(l.path)-2].typ == "await_expression"
}

// moduleFile is the marked path a specifier loads, "" for one node
// looks up in node_modules (a bare name, an absolute path).
func moduleFile(spec string) string {
	switch {
	case absPath(spec):
		return cleanPath(spec)
	case spec == "." || spec == ".." || relative(spec):
		return cleanPath(fileDirMark + "/" + spec)
	}
	return ""
}

// resolveReaddir reads a site in a readdirSync loop: the folder, and the
// conditions an entry must meet to be loaded.
func (w *walker) resolveReaddir(f loadFact, arg *sitter.Node, bar int, p instance, parents int) (loadFact, bool) {
	rd := w.readdirLoop(bar)
	w.env = p.env
	dir, ok := w.pathOf(rd.dir, "", 0)
	if ok && !absPath(dir) {
		ok = !strings.HasPrefix(dir, "/")
		dir = cleanPath(cwdMark + "/" + dir) // fs functions start from the working folder
	}
	spec, ok2 := w.pathOf(arg, rd.name, 0)
	if !ok || !ok2 || rd.name == "" {
		f.Why = whyComputed
		return f, true
	}
	if !strings.Contains(spec, entryMark) {
		return f, moduleFile(spec) != "" // the same file on every entry: not this loop's
	}
	if moduleFile(spec) != dir+"/"+entryMark {
		f.Why = whyComputed
		return f, true
	}
	filter, ok := w.readdirFilter(rd, bar)
	switch {
	case !ok:
		f.Why = whyFilter
	case parents > 1:
		f.Why = whyRepeated
	default:
		f.Dir, f.Filter = dir, and(append(rd.filters, filter)...)
	}
	return f, true
}

// bareImports notes the top-level import './x.js' statements, which load
// a module for its effect: ES modules run the modules they import first.
func (w *walker) bareImports() {
	for i := 0; i < int(w.root.NamedChildCount()); i++ {
		n := w.root.NamedChild(i)
		src := n.ChildByFieldName("source")
		if n.Type() != "import_statement" || src == nil || src.Type() != "string" {
			continue
		}
		spec := unescape(w.text(src), 1)
		if !relative(spec) || hasImportClause(n) {
			continue
		}
		for _, p := range w.topInstances() {
			f := loadFact{Line: int(n.StartPoint().Row) + 1, Parent: p.key, Spaced: p.spaced, Run: p.run,
				Skip: p.skip, Cond: p.cond, Call: compact(strings.TrimSuffix(w.text(n), ";")), Files: []string{moduleFile(spec)}}
			f.Record = w.emitLoadNamed(f.Call, f.Line, p)
			w.loads = append(w.loads, f)
		}
	}
}

func hasImportClause(n *sitter.Node) bool {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		if n.NamedChild(i).Type() == "import_clause" {
			return true
		}
	}
	return false
}
