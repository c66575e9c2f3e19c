package js

import (
	"encoding/json"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Tables imported from a local module of literals (import {cases} from
// './cases', require('./cases.json')) are read in two steps, so a change
// to the module reaches the listing through the cache: the extractor
// notes in the file's Facts which relative imports it would have needed,
// and the linker reads those modules through the project's Load (cached
// per module), then extracts the test file again with their values
// (cached by them too: linkcache.go).
// Nothing is executed: a module's exports are evaluated as literals, one
// level deep (a module's own imports stay unknown).

// importRef is a module-level binding of a relative import: the local
// name, the specifier, and the export it takes ("default", "*" for the
// whole module, or a name).
type importRef struct {
	Local string `json:"local"`
	Spec  string `json:"spec"`
	Name  string `json:"name"`
}

// importFacts are a test file's Facts: the relative imports a title
// needed, and the load sites (see loads.go).
type importFacts struct {
	Imports []importRef `json:"imports,omitempty"`
	Loads   []loadFact  `json:"loads,omitempty"`
	// Hidden says that a file read in the loaded mode declares tests in
	// functions, which whoever calls them declares.
	Hidden bool `json:"hidden,omitempty"`
	// CallsOnly says that no title needed the imports, only calls of
	// imported functions that may declare tests (see withHelpers).
	CallsOnly bool `json:"callsOnly,omitempty"`
	// Dirs are the folders whose entries a title needed (readdirSync),
	// as marked paths (see loadpath.go).
	Dirs []string `json:"dirs,omitempty"`
	// Reads are the modules a linked extraction's computed requires
	// loaded (see linkcache.go).
	Reads []requireRead `json:"reads,omitempty"`
}

// relative reports whether a module specifier names a local file.
func relative(spec string) bool {
	return strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../")
}

// importBindings records the bindings of an import statement of a
// relative module.
func (w *walker) importBindings(n *sitter.Node, spec string) {
	w.eachImport(n, func(local, imported string) {
		if imported != "default" && imported != "*" {
			imported = unescape(imported, 0)
		}
		w.addImport(local, spec, imported)
	})
}

// eachImport calls fn for each binding an import statement makes: its
// local name, and what it imports: "default", "*" (a namespace) or the
// exported name as written.
func (w *walker) eachImport(n *sitter.Node, fn func(local, imported string)) {
	for i := 0; i < int(n.NamedChildCount()); i++ {
		cl := n.NamedChild(i)
		if cl.Type() != "import_clause" {
			continue
		}
		for j := 0; j < int(cl.NamedChildCount()); j++ {
			c := cl.NamedChild(j)
			switch c.Type() {
			case "identifier":
				fn(w.text(c), "default")
			case "namespace_import": // import * as t from 'vitest'
				if c.NamedChildCount() > 0 {
					fn(w.text(c.NamedChild(0)), "*")
				}
			case "named_imports":
				for k := 0; k < int(c.NamedChildCount()); k++ {
					s := c.NamedChild(k)
					name, alias := s.ChildByFieldName("name"), s.ChildByFieldName("alias")
					if name == nil {
						continue
					}
					local := name
					if alias != nil {
						local = alias
					}
					fn(w.text(local), w.text(name))
				}
			}
		}
	}
}

// requireBindings records const x = require('./m') and
// const {a, b: c} = require('./m').
func (w *walker) requireBindings(name *sitter.Node, spec string) {
	switch name.Type() {
	case "identifier":
		w.addImport(w.text(name), spec, "*")
	case "object_pattern":
		for k := 0; k < int(name.NamedChildCount()); k++ {
			p := name.NamedChild(k)
			switch p.Type() {
			case "shorthand_property_identifier_pattern":
				w.addImport(w.text(p), spec, w.text(p))
			case "pair_pattern":
				key, v := p.ChildByFieldName("key"), p.ChildByFieldName("value")
				if k, ok := w.propertyKey(key); ok && v != nil && v.Type() == "identifier" {
					w.addImport(w.text(v), spec, k)
				}
			}
		}
	}
}

func (w *walker) addImport(local, spec, name string) {
	if w.imports == nil {
		w.imports = map[string]importRef{}
	}
	w.imports[local] = importRef{Local: local, Spec: spec, Name: name}
}

// requiredLocal returns the relative specifier a require call loads, or "".
func (w *walker) requiredLocal(call *sitter.Node) string {
	if call.Type() != "call_expression" {
		return ""
	}
	fn, args := call.ChildByFieldName("function"), call.ChildByFieldName("arguments")
	if fn == nil || args == nil || w.text(fn) != "require" || args.NamedChildCount() != 1 {
		return ""
	}
	a := args.NamedChild(0)
	if spec := unescape(w.text(a), 1); a.Type() == "string" && relative(spec) {
		return spec
	}
	return ""
}

// requiredMember reads require('./m').name, one export of a local
// module: its specifier and the name, "" when n is not that.
func (w *walker) requiredMember(n *sitter.Node) (spec, name string) {
	if n.Type() != "member_expression" || optional(n) {
		return "", ""
	}
	obj, p := n.ChildByFieldName("object"), n.ChildByFieldName("property")
	if obj == nil || p == nil || p.Type() != "property_identifier" {
		return "", ""
	}
	if spec = w.requiredLocal(obj); spec == "" {
		return "", ""
	}
	return spec, w.text(p)
}

// imported is the value of an imported binding when the linker supplied
// it; otherwise it notes that the file needs its imports.
func (w *evaluator) imported(name string) (value, bool) {
	if _, ok := w.imports[name]; !ok {
		return value{}, false
	}
	if v, ok := w.importValues[name]; ok {
		return v, true
	}
	w.needImports = true
	return value{}, false
}

// facts encodes the file's relative imports when a title needed one
// (until the linker supplied them), and its load sites.
func (w *walker) facts() []byte {
	f := importFacts{Loads: w.loads, Hidden: w.hidden, CallsOnly: w.needHelpers && !w.needImports}
	if w.dirs == nil {
		f.Dirs = sortedSet(w.needDirs)
	}
	if (w.needImports || w.needHelpers) && w.importValues == nil {
		for _, r := range w.imports {
			f.Imports = append(f.Imports, r)
		}
		sort.Slice(f.Imports, func(i, j int) bool { return f.Imports[i].Local < f.Imports[j].Local })
	}
	if len(f.Imports) == 0 && len(f.Loads) == 0 && !f.Hidden && len(f.Dirs) == 0 {
		return nil
	}
	b, err := json.Marshal(f)
	if err != nil {
		return nil
	}
	return b
}

// moduleExtractor reads a local module's literal exports; its Result
// carries them in Facts (see wire) and has no tests.
type moduleExtractor struct{ fw testdex.Framework }

func (m moduleExtractor) Framework() testdex.Framework { return m.fw }

// CacheKey names the host too: a module's exports may read it
// (exports.methods = http.METHODS.map(...)).
func (m moduleExtractor) CacheKey() string { return "js-module-6/" + hostKey() }

func (m moduleExtractor) Extract(f *lang.File) (res lang.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = lang.Result{}
		}
	}()
	exports, err := moduleExports(m.fw, f.Rel, f.Data)
	if err != nil {
		return lang.Result{}
	}
	wired := map[string]wire{}
	for k, v := range exports {
		wired[k] = toWire(v, 0)
	}
	b, _ := json.Marshal(wired)
	return lang.Result{Facts: b}
}

// moduleExports evaluates a module's exports: "default", "*" (the whole
// module as require or import * sees it) and each named export.
func moduleExports(fw testdex.Framework, name string, data []byte) (map[string]value, error) {
	g := grammar(name)
	if path.Ext(name) == ".json" {
		g = grammar("x.js")
		data = append(append([]byte("("), data...), ")\n"...)
	}
	tree, err := parse(g, data)
	if err != nil {
		return nil, err
	}
	defer tree.Close()
	w := newWalker(fw, g, data, tree.RootNode())
	defer w.close()
	if q, err := callQuery(g); err == nil {
		w.q = q // for declaresTests
	}
	out := map[string]value{}
	if path.Ext(name) == ".json" {
		if st := w.root.NamedChild(0); st != nil && st.NamedChildCount() > 0 {
			v := w.eval(st.NamedChild(0), 0)
			out["default"], out["*"] = v, v
		}
		return out, nil
	}
	w.exports(out)
	return out, nil
}

// exports reads export const/let/var, export default, export {a as b},
// module.exports = ... and exports.x = ... at the top level. Every named
// export is also out[name]. An ES module's namespace ("*") lists every
// runtime export, in source order (as TypeScript's and Babel's CommonJS
// output and Vite's module runner define them; native ES modules sort
// them, which changes only an index in a title); those whose values are
// not literals (functions, classes, re-exports) are unknown values. When
// the names themselves are not all known (export * from, a destructured
// declaration), the namespace is unknown but for member access to the
// named exports the source shows.
func (w *walker) exports(out map[string]value) {
	ns := value{kind: kObject}
	cjs, open := false, false
	for i := 0; i < int(w.root.NamedChildCount()); i++ {
		n := w.root.NamedChild(i)
		switch n.Type() {
		case "export_statement":
			open = !w.exportStatement(n, &ns) || open
		case "expression_statement":
			if n.NamedChildCount() == 0 || n.NamedChild(0).Type() != "assignment_expression" {
				continue
			}
			a := n.NamedChild(0)
			left, right := a.ChildByFieldName("left"), a.ChildByFieldName("right")
			switch t := w.text(left); {
			case t == "module.exports":
				v := w.eval(right, 0)
				if w.isFunction(right) {
					v = value{str: w.text(right), fn: true, props: &value{kind: kObject}}
				}
				cjs, ns = true, v
			case strings.HasPrefix(t, "module.exports.") && ns.props != nil && strings.Count(t, ".") == 2:
				key := t[strings.LastIndexByte(t, '.')+1:]
				putKey(ns.props, key, w.withHelper(w.eval(right, 0), right))
			case strings.HasPrefix(t, "module.exports.") || strings.HasPrefix(t, "exports."):
				key := t[strings.LastIndexByte(t, '.')+1:]
				if ns.kind == kObject {
					cjs = true
					putKey(&ns, key, w.withHelper(w.eval(right, 0), right))
				}
			}
		}
	}
	out["*"] = ns
	if open && !cjs { // the named exports stay readable one by one, m.name too
		for i, k := range ns.keys {
			out[k] = ns.vals[i]
		}
		known := ns
		out["*"] = value{props: &known}
	}
	if cjs {
		out["default"] = ns
	} else if d, ok := ns.field("default"); ok {
		out["default"] = d
	}
}

// putKey sets o[key] = v as an assignment does: an existing key keeps its
// place and takes the new value (exports.f = a; exports.f = b is b), a new
// one comes last.
func putKey(o *value, key string, v value) {
	for i, k := range o.keys {
		if k == key {
			o.vals[i] = v
			return
		}
	}
	o.keys, o.vals = append(o.keys, key), append(o.vals, v)
}

// isFunction reports whether n is a function expression or names a
// function the module declares at its top level.
func (w *walker) isFunction(n *sitter.Node) bool {
	switch n.Type() {
	case "arrow_function", "function_expression", "function":
		return true
	case "identifier":
		return w.functions[w.text(n)] && !w.redeclared[w.text(n)]
	}
	return false
}

// exportStatement adds an export statement's names to ns; it reports
// false when the statement exports names the source does not show
// (export * from, a destructuring pattern, a declaration it does not
// know).
func (w *walker) exportStatement(n *sitter.Node, ns *value) bool {
	add := func(k string, v value) {
		for i, have := range ns.keys {
			if have == k { // an overload signature before its function
				ns.vals[i] = v
				return
			}
		}
		ns.keys, ns.vals = append(ns.keys, k), append(ns.vals, v)
	}
	text := w.text(n)
	if strings.HasPrefix(text, "export type ") || strings.HasPrefix(text, "export type{") {
		return true // types only
	}
	if strings.HasPrefix(text, "export const enum") {
		return false // inlined away or kept, as the compiler chooses
	}
	isDefault := strings.HasPrefix(text, "export default")
	if d := n.ChildByFieldName("declaration"); d != nil {
		return w.exportDeclaration(d, isDefault, add)
	}
	if v := n.ChildByFieldName("value"); v != nil { // export default expr
		add("default", w.withHelper(w.eval(v, 0), v))
		return true
	}
	from := n.ChildByFieldName("source") != nil
	complete := false // export * from './m', TypeScript's export = x
	for i := 0; i < int(n.NamedChildCount()); i++ {
		cl := n.NamedChild(i)
		switch cl.Type() {
		case "namespace_export": // export * as m from './m'
			complete = true
			if cl.NamedChildCount() > 0 {
				add(w.exportName(cl.NamedChild(0)), value{})
			}
		case "export_clause":
			complete = true
			for k := 0; k < int(cl.NamedChildCount()); k++ {
				s := cl.NamedChild(k)
				name, alias := s.ChildByFieldName("name"), s.ChildByFieldName("alias")
				if name == nil || strings.HasPrefix(w.text(s), "type ") {
					continue
				}
				exported := name
				if alias != nil {
					exported = alias
				}
				v := value{} // a re-export: another module's value
				if !from {
					v = w.ident(name, 0)
				}
				add(w.exportName(exported), v)
			}
		}
	}
	return complete
}

// exportDeclaration adds the names an export declaration makes.
func (w *walker) exportDeclaration(d *sitter.Node, isDefault bool, add func(string, value)) bool {
	named := func(v value) bool {
		if isDefault {
			add("default", v)
			return true
		}
		id := d.ChildByFieldName("name")
		if id == nil {
			return false
		}
		add(w.text(id), v)
		return true
	}
	switch d.Type() {
	case "lexical_declaration", "variable_declaration":
		for j := 0; j < int(d.NamedChildCount()); j++ {
			dc := d.NamedChild(j)
			if dc.Type() != "variable_declarator" {
				continue
			}
			id, v := dc.ChildByFieldName("name"), dc.ChildByFieldName("value")
			if id == nil || id.Type() != "identifier" {
				return false // export const [a, b] = ...
			}
			val := value{kind: kUndefined}
			if v != nil {
				val = w.withHelper(w.eval(v, 0), v)
			}
			add(w.text(id), val)
		}
		return true
	case "function_declaration", "generator_function_declaration", "function_signature":
		return named(w.withHelper(value{str: w.text(d), fn: true}, d))
	case "class_declaration", "abstract_class_declaration":
		return named(value{})
	case "enum_declaration":
		return named(value{})
	case "type_alias_declaration", "interface_declaration", "ambient_declaration":
		return true // types and declarations have no runtime value
	}
	return false
}

// withHelper notes in v, the value of the function n, its source when
// its body declares tests (see value.helper).
// A function that declares no tests but only returns an expression of
// its parameters gets its source in v.pure instead. An identifier naming
// a function the module declares once stands for that declaration.
func (w *walker) withHelper(v value, n *sitter.Node) value {
	if n != nil && n.Type() == "identifier" {
		name := w.text(n)
		if w.redeclared[name] || w.mutated(name) || w.fnDecls[name] == nil {
			return v // not one function: reassigned, or declared twice
		}
		n = w.fnDecls[name]
	}
	if w.q == nil || n == nil || (!isFunction(n.Type()) && n.Type() != "function_declaration") {
		return v
	}
	if w.declaresTests(n) {
		v.helper = w.helperSource(n)
	} else if _, straight := w.straight(n); straight || returned(n) != nil {
		if ps, b := w.helperParts(n); b != "" {
			v.pure = ps + " " + w.withModuleConsts(n, ps, b)
		}
	}
	return v
}

// helperSource is a function's parameters and body as a declaration
// writes them: "(a, b) {...}", an arrow's expression body as a return;
// "" for an async or generator function (whose tests may be declared
// after the file is collected) and one without a body.
func (w *walker) helperSource(fn *sitter.Node) string {
	ps, b := w.helperParts(fn)
	if b == "" {
		return ""
	}
	return ps + " " + b
}

// helperParts are helperSource's parameters and body; "" for none.
func (w *walker) helperParts(fn *sitter.Node) (string, string) {
	text := w.text(fn)
	if strings.HasPrefix(text, "async") || strings.Contains(fn.Type(), "generator") || strings.HasPrefix(text, "function*") {
		return "", ""
	}
	body := fn.ChildByFieldName("body")
	if body == nil {
		return "", ""
	}
	p := fn.ChildByFieldName("parameters")
	if p == nil {
		p = fn.ChildByFieldName("parameter")
	}
	if p == nil {
		return "", ""
	}
	ps, ok1 := w.renamed(p) // a parameter named like a module binding is renamed with it
	b, ok2 := w.renamed(body)
	if !ok1 || !ok2 {
		return "", ""
	}
	if p.Type() != "formal_parameters" {
		ps = "(" + ps + ")"
	}
	if body.Type() != "statement_block" {
		b = "{ return (" + b + "); }"
	}
	return ps, b
}

// renamed is n's source with each identifier naming a binding of the
// module's top level (a const, a variable, a function, an import)
// renamed $m$name: in an importer, where linkImports appends it, that
// name is bound to nothing, so what it reads stays unknown rather than
// taking the importer's binding of the same name. ok is false when a
// shorthand property ({name}) names one: renaming would change the key.
func (w *walker) renamed(n *sitter.Node) (string, bool) {
	q, err := cachedQuery(w.lang, mentionQuery)
	if err != nil {
		return "", false
	}
	var found []*sitter.Node
	for c := range tsgrammars.CaptureNodes(q, n) {
		name := w.text(c)
		if _, imp := w.imports[name]; !imp && w.consts[name] == nil && w.vars[name] == nil && !w.functions[name] {
			continue
		}
		if c.Type() != "identifier" {
			return "", false
		}
		found = append(found, c)
	}
	sort.Slice(found, func(i, j int) bool { return found[i].StartByte() < found[j].StartByte() })
	var b strings.Builder
	at := n.StartByte()
	for _, c := range found {
		name := w.text(c)
		b.Write(w.src[at:c.StartByte()])
		b.WriteString("$m$" + name)
		at = c.EndByte()
	}
	b.Write(w.src[at:n.EndByte()])
	return b.String(), true
}

// exportName is an export's name: an identifier or a string literal
// (export { a as "b c" }).
func (w *walker) exportName(n *sitter.Node) string {
	if n.Type() == "string" {
		return unescape(w.text(n), 1)
	}
	return w.text(n)
}

// moduleCandidates are the files a relative specifier may name, in the
// order bundlers and TypeScript try them.
func moduleCandidates(dir, spec string) []string {
	base := filepath.Join(dir, filepath.FromSlash(spec))
	out := []string{base}
	for _, ext := range []string{".ts", ".tsx", ".mts", ".cts", ".js", ".mjs", ".cjs", ".json"} {
		out = append(out, base+ext)
	}
	if ext := filepath.Ext(base); ext == ".js" || ext == ".mjs" || ext == ".cjs" { // ESM TypeScript imports ./x.js for x.ts
		stem := strings.TrimSuffix(base, ext)
		out = append(out, stem+".ts", stem+".tsx", stem+".mts", stem+".cts")
	}
	for _, idx := range []string{"index.ts", "index.tsx", "index.js", "index.mjs", "index.cjs", "index.json"} {
		out = append(out, filepath.Join(base, idx))
	}
	return out
}

// linkImports extracts again, with their imported values, the files whose
// titles needed a local module. It reads the modules through p.Load.
func linkImports(fw testdex.Framework, p *lang.Project, f *lang.Linked, mr *moduleResolver) []testdex.Problem {
	var facts importFacts
	if len(f.Result.Facts) == 0 || json.Unmarshal(f.Result.Facts, &facts) != nil || (len(facts.Imports) == 0 && len(facts.Dirs) == 0) {
		return nil
	}
	abs := filepath.Join(p.Dir, filepath.FromSlash(f.Rel))
	values := map[string]value{}
	modules := map[string]map[string]wire{}
	for _, r := range facts.Imports {
		m, ok := modules[r.Spec]
		if !ok {
			cands := moduleCandidates(filepath.Dir(abs), r.Spec)
			if !relative(r.Spec) {
				cands = mr.mappedFile(abs, r.Spec)
			}
			m = loadModule(fw, p, cands)
			modules[r.Spec] = m
		}
		if v, ok := exported(m, r.Name); ok {
			values[r.Local] = v
		}
	}
	dirs := readDirs(p.Dir, filepath.Dir(abs), facts.Dirs)
	if len(values) == 0 && len(dirs) == 0 {
		return nil
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return []testdex.Problem{{Severity: testdex.SevWarning, Path: f.RootRel,
			Message: fmt.Sprintf("cannot read the file again to fill in its imported tables: %v", err)}}
	}
	var settings lang.Settings
	for _, s := range p.Frameworks {
		if s.Framework == fw {
			settings = s.Settings
		}
	}
	helpers, pures := importedFunctions(facts.Imports, values)
	if facts.CallsOnly && len(helpers) == 0 && len(dirs) == 0 {
		return nil // nothing to inline, and no title needs a value
	}
	res := extractLinked(fw, p, f.Rel, abs, data, settings,
		&linkedValues{imports: values, helpers: helpers, pures: pures, dirs: dirs, require: requirer(fw, p, filepath.Dir(abs))})
	f.Result.Tests, f.Result.Problems, f.Result.Facts = res.Tests, res.Problems, res.Facts
	return nil
}

// importedFunctions picks, from the values of a file's imports, the
// functions the linker appends to it: those that declare tests (helpers)
// and those that only return an expression (pures), under their local
// name, or m$f for f of a whole module m.
func importedFunctions(imports []importRef, values map[string]value) (helpers, pures map[string]string) {
	helpers, pures = map[string]string{}, map[string]string{}
	for _, r := range imports {
		v, ok := values[r.Local]
		switch {
		case !ok || !identRE.MatchString(r.Local):
		case r.Name != "*" && v.helper != "":
			helpers[r.Local] = v.helper
		case r.Name != "*" && v.pure != "":
			pures[r.Local] = v.pure
		case r.Name == "*": // m.f(...): see helperCallee
			ns := v
			if v.props != nil { // names not all known, or a function's properties
				ns = *v.props
			}
			for i, k := range ns.keys {
				if ns.kind != kObject || !identRE.MatchString(k) {
					continue
				}
				if ns.vals[i].helper != "" {
					helpers[r.Local+"$"+k] = ns.vals[i].helper
				} else if ns.vals[i].pure != "" {
					pures[r.Local+"$"+k] = ns.vals[i].pure
				}
			}
		}
	}
	return helpers, pures
}

// withHelpers appends to a test file's source the imported functions
// that declare tests, each as a declaration under its local name, so that
// its calls are inlined as a local helper's are (the records get the
// call's line); ok is false when there are none or the result does not
// parse (a TypeScript helper in a JavaScript file).
func withHelpers(g *sitter.Language, data []byte, helpers map[string]string) ([]byte, bool) {
	if len(helpers) == 0 {
		return nil, false
	}
	names := make([]string, 0, len(helpers))
	for n := range helpers {
		names = append(names, n)
	}
	sort.Strings(names)
	out := append(append([]byte{}, data...), '\n')
	for _, n := range names {
		out = append(out, "function "+n+helpers[n]+"\n"...)
	}
	tree, err := parse(g, out)
	if err != nil {
		return nil, false
	}
	defer tree.Close()
	if root := tree.RootNode(); root.HasError() && !appendedWhole(root, len(data), len(names)) {
		return nil, false
	}
	return out, true
}

// moduleResolver finds the one file of the project a bare specifier of
// a test file's import names through a mapping (tsconfig paths or
// baseUrl, Jest's moduleNameMapper, modulePaths and moduleDirectories, a
// Vite alias, package.json imports), with the impact graph's resolver,
// built once per project when a file first needs it. A package, even
// one of the workspace, is not a local table; nor is a specifier that
// may name more than one file.
type moduleResolver struct {
	fws  []testdex.Framework
	dir  string
	once sync.Once
	r    *resolver
}

func newModuleResolver(p *lang.Project) *moduleResolver {
	m := &moduleResolver{dir: filepath.Clean(p.Dir)}
	for _, s := range p.Frameworks {
		m.fws = append(m.fws, s.Framework)
	}
	return m
}

// mappedFile returns the file spec names from the test file from, as a
// one-element candidate list, or nil.
func (m *moduleResolver) mappedFile(from, spec string) []string {
	m.once.Do(func() {
		r := &resolver{root: m.dir, proj: m.dir, readFile: os.ReadFile}
		r.packages, _ = r.workspace()
		r.cfg = readProjectConfig(r, m.fws)
		m.r = r
	})
	targets, o, _ := m.r.resolve(from, ref{kind: "import", spec: spec})
	if o != found {
		return nil
	}
	file := ""
	for _, t := range targets {
		if t.mock || t.tree || t.via == "" || strings.HasPrefix(t.via, "package ") || file != "" && t.file != file {
			return nil
		}
		file = t.file
	}
	if file == "" {
		return nil
	}
	return []string{file}
}

// loadModule reads the first candidate file that exists; nil when none
// does or it cannot be read.
func loadModule(fw testdex.Framework, p *lang.Project, cands []string) map[string]wire {
	for _, c := range cands {
		st, err := os.Stat(c)
		if err != nil || st.IsDir() {
			continue
		}
		rel, err := filepath.Rel(p.Dir, c)
		if err != nil || strings.HasPrefix(rel, "..") || strings.Contains(filepath.ToSlash(rel), "node_modules/") {
			return nil // outside the project: not a local table
		}
		var res lang.Result
		if p.Load != nil {
			res, err = p.Load(c, moduleExtractor{fw}, nil)
		} else {
			var data []byte
			if data, err = os.ReadFile(c); err == nil {
				res = moduleExtractor{fw}.Extract(&lang.File{Rel: filepath.ToSlash(rel), Abs: c, Data: data})
			}
		}
		if err != nil {
			return nil
		}
		var m map[string]wire
		if json.Unmarshal(res.Facts, &m) != nil {
			return nil
		}
		return m
	}
	return nil
}

// exported picks one export of a module read by loadModule.
func exported(m map[string]wire, name string) (value, bool) {
	if m == nil {
		return value{}, false
	}
	if w, ok := m[name]; ok {
		return fromWire(w), true
	}
	if ns, ok := m["*"]; ok {
		v := fromWire(ns)
		if v.kind == kObject {
			return member(v, name), true
		}
	}
	return value{}, false
}
