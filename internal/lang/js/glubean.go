package js

import (
	"bytes"
	"fmt"
	"regexp"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// glubeanVersion changes whenever the Glubean extractor's output for the
// same input does.
const glubeanVersion = "glubean-1"

// glubeanExtractor reads the tests of one Glubean test module: the
// module's exports built with the SDK's test function, as the Glubean
// runner finds them (it imports the module and walks its exports). Each
// test is keyed by its id (the first argument, or the id field of the
// meta object), not by the export's name: the runner selects by id.
//
// The shapes read are test("id", fn), test({id, name, tags, skip, only},
// fn), test.only and test.skip, the builder (test("id") chained with
// .meta, .step, .setup, .teardown, .only, .skip, with or without .build()),
// whose steps are the test's children, test.each(table) in both modes
// (with a callback, and as a builder), one record a row with the id
// template filled in as the SDK does ($index, then $key for each key of
// the row), test.pick(examples), one record an example (the runner runs
// the one it picks, or those --pick names), and arrays of them. An id the
// source does not give literally is a dynamic record, as is a table that
// is not a literal or that a filter callback thins out.
type glubeanExtractor struct{}

// Framework is Glubean.
func (glubeanExtractor) Framework() testdex.Framework { return testdex.Glubean }

// CacheKey names the extractor's version.
func (glubeanExtractor) CacheKey() string { return glubeanVersion }

// Extract reads f's tests; it never panics.
func (glubeanExtractor) Extract(f *lang.File) (res lang.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = lang.Result{Problems: append(res.Problems, testdex.Problem{Severity: testdex.SevError,
				Message: fmt.Sprintf("internal error reading tests (please report it): %v", r)})}
		}
	}()
	if bytes.IndexByte(f.Data[:min(len(f.Data), 8000)], 0) >= 0 {
		return lang.Result{Problems: []testdex.Problem{{Severity: testdex.SevError, Message: "binary file, not a Glubean test module"}}}
	}
	if !utf8.Valid(f.Data) {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevError, Line: badUTF8Line(f.Data),
			Message: "invalid UTF-8; ids read from this file may be wrong (save it as UTF-8)"})
	}
	g := grammar(f.Rel)
	tree, err := parse(g, f.Data)
	if err != nil {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevError, Message: "cannot parse: " + err.Error()})
		return res
	}
	defer tree.Close()
	root := tree.RootNode()
	if root.HasError() {
		res.Problems = append(res.Problems, syntaxProblem(root))
	}
	w := newWalker(testdex.Glubean, g, f.Data, root)
	defer w.close()
	gw := &gwalker{walker: w, fns: map[string]bool{}, locals: map[string]*sitter.Node{}, seen: map[string]int{}}
	gw.module()
	res.Tests = gw.tests
	res.Problems = append(res.Problems, gw.problems...)
	return res
}

// sdkImport matches an import of the Glubean SDK: the bare specifier of
// an import map or package.json, and Deno's jsr: and npm: ones, with an
// optional version and subpath.
var sdkImport = regexp.MustCompile(`(?:from|import|require\()\s*["'](?:jsr:|npm:)?@glubean/sdk(?:@[^"'/]*)?(?:/[^"']*)?["']`)

// isSDK reports whether a module specifier is the Glubean SDK's.
func isSDK(spec string) bool {
	return sdkImport.MatchString(`from "` + spec + `"`)
}

// importsGlubean reports whether a source imports the Glubean SDK.
func importsGlubean(data []byte) bool { return sdkImport.Match(data) }

// gwalker reads one Glubean module, on top of the JavaScript walker's
// evaluator (its consts, imports and literal values).
type gwalker struct {
	*walker
	fns    map[string]bool         // the local names of the SDK's test function: test, sdk.test, an extension
	locals map[string]*sitter.Node // top-level const name -> its value, for export { a, b as c }
	seen   map[string]int          // the ids listed: the line of the first
}

// module reads the imports, then the exports in source order.
func (g *gwalker) module() {
	var stmts []*sitter.Node
	for i := 0; i < int(g.root.NamedChildCount()); i++ {
		n := g.root.NamedChild(i)
		stmts = append(stmts, n)
		if n.Type() == "import_statement" {
			g.sdkBindings(n)
		}
	}
	if len(g.fns) == 0 {
		g.fns["test"] = true // imported through a local module that re-exports or extends it
	}
	for _, n := range stmts {
		g.declarations(n)
	}
	exported := map[*sitter.Node]bool{}
	for _, n := range stmts {
		if n.Type() != "export_statement" {
			g.unexported(n, exported)
			continue
		}
		g.export(n, exported)
	}
}

// sdkBindings records the names an import of the SDK binds to its test
// function.
func (g *gwalker) sdkBindings(n *sitter.Node) {
	src := n.ChildByFieldName("source")
	if src == nil || !isSDK(unescape(g.text(src), 1)) {
		return
	}
	g.eachImport(n, func(local, imported string) {
		switch imported {
		case "test":
			g.fns[local] = true
		case "*":
			g.fns[local+".test"] = true
		}
	})
}

// declarations records the top-level consts, and the test functions that
// test.extend(...) makes (const browserTest = test.extend({...})).
func (g *gwalker) declarations(n *sitter.Node) {
	if n.Type() == "export_statement" {
		if d := n.ChildByFieldName("declaration"); d != nil {
			n = d
		}
	}
	if n.Type() != "lexical_declaration" && n.Type() != "variable_declaration" {
		return
	}
	for j := 0; j < int(n.NamedChildCount()); j++ {
		d := n.NamedChild(j)
		name, val := d.ChildByFieldName("name"), d.ChildByFieldName("value")
		if d.Type() != "variable_declarator" || name == nil || val == nil || name.Type() != "identifier" {
			continue
		}
		g.locals[g.text(name)] = val
		if val.Type() == "call_expression" {
			if f := val.ChildByFieldName("function"); f != nil && f.Type() == "member_expression" {
				if p := f.ChildByFieldName("property"); p != nil && g.text(p) == "extend" && g.isTestFn(f.ChildByFieldName("object")) {
					g.fns[g.text(name)] = true
				}
			}
		}
	}
}

// export lists what one export statement exports.
func (g *gwalker) export(n *sitter.Node, done map[*sitter.Node]bool) {
	if d := n.ChildByFieldName("declaration"); d != nil {
		for j := 0; j < int(d.NamedChildCount()); j++ {
			if v := d.NamedChild(j).ChildByFieldName("value"); v != nil && !done[v] {
				done[v] = true
				g.declare(v)
			}
		}
		return
	}
	if v := n.ChildByFieldName("value"); v != nil { // export default test(...)
		g.declare(v)
		return
	}
	if n.ChildByFieldName("source") != nil {
		return // export { x } from "./other.ts": that module's own tests
	}
	for i := 0; i < int(n.NamedChildCount()); i++ {
		cl := n.NamedChild(i)
		if cl.Type() != "export_clause" {
			continue
		}
		for k := 0; k < int(cl.NamedChildCount()); k++ {
			if name := cl.NamedChild(k).ChildByFieldName("name"); name != nil {
				if v := g.locals[g.text(name)]; v != nil && !done[v] {
					done[v] = true
					g.declare(v)
				}
			}
		}
	}
}

// unexported warns of a test declared at the top level but not exported
// (yet, when an export clause comes later): the runner finds tests by the
// module's exports and never sees it.
func (g *gwalker) unexported(n *sitter.Node, done map[*sitter.Node]bool) {
	var v *sitter.Node
	switch n.Type() {
	case "expression_statement":
		if n.NamedChildCount() > 0 {
			v = n.NamedChild(0)
		}
	case "lexical_declaration", "variable_declaration":
		if n.NamedChildCount() > 0 {
			v = n.NamedChild(0).ChildByFieldName("value")
		}
	}
	if v == nil || done[v] || g.exportedLater(v) {
		return
	}
	if ds, ok := g.chain(v, 0); ok && len(ds) > 0 {
		g.problems = append(g.problems, testdex.Problem{Severity: testdex.SevWarning, Line: int(v.StartPoint().Row) + 1,
			Message: "a Glubean test that is not exported: the runner finds tests by the module's exports and will not run it (export it)"})
	}
}

// exportedLater reports whether a top-level const's value is exported by
// an export clause.
func (g *gwalker) exportedLater(v *sitter.Node) bool {
	for name, val := range g.locals {
		if val == v && g.inExportClause(name) {
			return true
		}
	}
	return false
}

func (g *gwalker) inExportClause(name string) bool {
	for i := 0; i < int(g.root.NamedChildCount()); i++ {
		n := g.root.NamedChild(i)
		if n.Type() != "export_statement" || n.ChildByFieldName("source") != nil {
			continue
		}
		for j := 0; j < int(n.NamedChildCount()); j++ {
			cl := n.NamedChild(j)
			if cl.Type() != "export_clause" {
				continue
			}
			for k := 0; k < int(cl.NamedChildCount()); k++ {
				if id := cl.NamedChild(k).ChildByFieldName("name"); id != nil && g.text(id) == name {
					return true
				}
			}
		}
	}
	return false
}
