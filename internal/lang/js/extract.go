package js

import (
	"bytes"
	"fmt"
	"hash/fnv"
	"maps"
	"path"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// version changes whenever the extractor's output for the same input does.
const version = "js-12"

// Extractor reads the tests of one JavaScript or TypeScript file for one
// framework: describe/it/test trees and their aliases, modifiers
// (.only, .skip, .todo, ...), .each and .for tables expanded with the
// framework's own title formatting, and node:test subtests (t.test).
// Calls in loops and array callbacks over literal data (for...of, for...in,
// indexed for, forEach, map) give one record per iteration, and a local
// helper function declaring tests is listed at each call with its
// arguments; titles are evaluated as JavaScript would (template literals,
// String(), join, JSON.stringify, the file's own functions that return an
// expression, ...), with the changes made before a read (push, pop,
// x = ...) replayed where the source fixes their order; a .each row it
// cannot name is one dynamic record beside the named rows. Tables imported from local modules
// are filled in by the linker (see linkImports). What depends on running
// code stays one dynamic record. It is safe for concurrent use; the zero
// value is not usable, see [ExtractorFor].
type Extractor struct {
	fw       testdex.Framework
	deepPath int // when not 0, replaces the constant deepPath (tests)
	// loaded makes it read a file another test file loads (see
	// loads.go): only what runs when the file is loaded is listed, under
	// base (nil: at the top level).
	loaded bool
	base   *instance
}

// ExtractorFor returns the extractor producing records of framework fw
// (testdex.Jest, Vitest, Mocha or NodeTest).
func ExtractorFor(fw testdex.Framework) *Extractor { return &Extractor{fw: fw} }

// Framework is the framework of the records.
func (x *Extractor) Framework() testdex.Framework { return x.fw }

// CacheKey names the extractor version and framework.
func (x *Extractor) CacheKey() string {
	k := version + "/" + string(x.fw) + "/" + hostKey()
	if x.loaded {
		h := fnv.New64a()
		if b := x.base; b != nil {
			fmt.Fprintf(h, "%q %q %q %t %t %t", b.key, b.spaced, b.run, b.skip, b.cond, b.only)
		}
		k += fmt.Sprintf("/loaded-%016x", h.Sum64())
	}
	return k
}

// grammar picks the tree-sitter grammar by file extension: typescript for
// .ts/.mts/.cts, tsx for .tsx, javascript (which reads JSX) otherwise.
func grammar(name string) *sitter.Language {
	switch path.Ext(name) {
	case ".ts", ".mts", ".cts":
		return tsgrammars.TypeScript
	case ".tsx":
		return tsgrammars.TSX
	}
	return tsgrammars.JavaScript
}

// parses counts the files parsed, for tests of the cache.
var parses atomic.Int64

func parse(lang *sitter.Language, data []byte) (*sitter.Tree, error) {
	parses.Add(1)
	return tsgrammars.Parse(lang, data)
}

// callSyms holds, per grammar, the symbols named call_expression.
var callSyms sync.Map // *sitter.Language -> map[sitter.Symbol]bool

func callSymbols(lang *sitter.Language) map[sitter.Symbol]bool {
	if m, ok := callSyms.Load(lang); ok {
		return m.(map[sitter.Symbol]bool)
	}
	m := map[sitter.Symbol]bool{}
	for s := sitter.Symbol(0); uint32(s) < lang.SymbolCount(); s++ {
		if lang.SymbolName(s) == "call_expression" && lang.SymbolType(s) == sitter.SymbolTypeRegular {
			m[s] = true
		}
	}
	callSyms.Store(lang, m)
	return m
}

// queries holds the compiled call query per grammar, compiled once.
var queries sync.Map // *sitter.Language -> *sitter.Query

func callQuery(lang *sitter.Language) (*sitter.Query, error) {
	if q, ok := queries.Load(lang); ok {
		return q.(*sitter.Query), nil
	}
	q, err := sitter.NewQuery([]byte("(call_expression) @c"), lang)
	if err != nil {
		return nil, err
	}
	if prev, loaded := queries.LoadOrStore(lang, q); loaded {
		q.Close()
		return prev.(*sitter.Query), nil
	}
	return q, nil
}

// Extract reads f's tests. A file that does not parse gives an error
// Problem at the first bad line and the tests that could be read; a binary
// file gives an error Problem and no tests. It never panics.
func (x *Extractor) Extract(f *lang.File) (res lang.Result) {
	return x.extract(f, nil)
}

// linkedValues are what the linker read for a test file (see linkImports):
// the values of its relative imports, the imported functions that declare
// tests (helpers) or only return an expression (pures, see value.pure),
// the entries of the folders its titles read (dirs, by marked path) and
// the modules a computed require loads (require).
type linkedValues struct {
	imports        map[string]value
	helpers, pures map[string]string
	dirs           map[string][]string
	require        func(marked string) (value, bool)
}

// extract is Extract with what the linker read; lv is nil before linking.
// The pures are appended beside the helpers when the result parses (a
// TypeScript function in a JavaScript file does not), for the
// evaluator's calls of them.
func (x *Extractor) extract(f *lang.File, lv *linkedValues) (res lang.Result) {
	if lv == nil {
		lv = &linkedValues{}
	}
	imports, helpers, pures := lv.imports, lv.helpers, lv.pures
	defer func() {
		if r := recover(); r != nil {
			res = lang.Result{Problems: append(res.Problems, testdex.Problem{Severity: testdex.SevError,
				Message: fmt.Sprintf("internal error reading tests (please report it): %v", r)})}
		}
	}()
	head := f.Data[:min(len(f.Data), 8000)]
	if bytes.IndexByte(head, 0) >= 0 {
		return lang.Result{Problems: []testdex.Problem{{Severity: testdex.SevError, Message: "binary file, not JavaScript or TypeScript source (exclude it from the test patterns)"}}}
	}
	if !utf8.Valid(f.Data) {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevError, Line: badUTF8Line(f.Data),
			Message: "invalid UTF-8; names read from this file may be wrong (save it as UTF-8)"})
	}
	g := grammar(f.Rel)
	origEnd := uint32(0)
	if len(pures) > 0 {
		both := maps.Clone(pures)
		maps.Copy(both, helpers)
		if _, ok := withHelpers(g, f.Data, both); ok {
			helpers = both
		}
	}
	if data, ok := withHelpers(g, f.Data, helpers); ok {
		origEnd = uint32(len(f.Data))
		f = &lang.File{Rel: f.Rel, Abs: f.Abs, Data: data, Framework: f.Framework, Settings: f.Settings}
	}
	tree, err := parse(g, f.Data)
	if err != nil {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevError, Message: "cannot parse: " + err.Error()})
		return res
	}
	defer func() { tree.Close() }()
	root := tree.RootNode()
	if root.HasError() {
		res.Problems = append(res.Problems, syntaxProblem(root))
		// A file cut short (being edited) usually only lacks closing
		// brackets: parse it again with them so its tests keep their
		// parents. Lines are unchanged, the closers come last.
		if c := closers(f.Data); c != "" {
			data := append(append([]byte{}, f.Data...), c...)
			if t2, err := parse(g, data); err == nil {
				if !t2.RootNode().HasError() {
					tree.Close()
					tree, root = t2, t2.RootNode()
					f = &lang.File{Rel: f.Rel, Data: data, Settings: f.Settings}
				} else {
					t2.Close()
				}
			}
		}
	}
	q, err := callQuery(g)
	if err != nil {
		res.Problems = append(res.Problems, testdex.Problem{Severity: testdex.SevError, Message: "internal error compiling query: " + err.Error()})
		return res
	}
	w := newWalker(x.fw, g, f.Data, root)
	defer w.close()
	w.importValues = imports
	w.dirs, w.requireValue = lv.dirs, lv.require
	if origEnd > 0 {
		w.origEnd, w.appended = origEnd, map[string]bool{}
		for name := range helpers {
			w.appended[name] = true
		}
	}
	if x.deepPath != 0 {
		w.deepPath = x.deepPath
	}
	w.file, w.loaded, w.base = f.Rel, x.loaded, x.base
	if t := f.Settings[tsJestSetting]; len(t) == 1 && isTypeScript(f.Rel) {
		w.tsTarget = esYear(t[0])
	}
	w.jasmine = x.fw == testdex.Jest && len(f.Settings[jasmineSetting]) == 1
	w.bareImports()
	w.run(q, callSymbols(g))
	res.Tests = w.tests
	res.Problems = append(res.Problems, w.problems...)
	res.Facts = w.facts()
	return res
}

// syntaxProblem locates the first ERROR or MISSING node.
func syntaxProblem(n *sitter.Node) testdex.Problem {
	for depth := 0; depth < 10000; depth++ {
		next := (*sitter.Node)(nil)
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if c.IsError() || c.IsMissing() {
				return syntaxAt(c)
			}
			if c.HasError() {
				next = c
				break
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return syntaxAt(n)
}

func syntaxAt(n *sitter.Node) testdex.Problem {
	msg := "syntax error; tests after this point may be missing (fix the file, or check it with tsc or node --check)"
	if n.IsMissing() {
		msg = fmt.Sprintf("syntax error: missing %q; tests after this point may be missing (the file looks unfinished)", n.Type())
	}
	return testdex.Problem{Severity: testdex.SevError, Line: int(n.StartPoint().Row) + 1, Message: msg}
}

func badUTF8Line(data []byte) int {
	off, _ := tsgrammars.InvalidUTF8(data)
	return tsgrammars.Line(data, off)
}
