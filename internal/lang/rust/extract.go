package rust

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	sitter "github.com/smacker/go-tree-sitter"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/tsgrammars"
)

// Extractor reads one Rust file: its #[test] functions (and the attribute
// macros that declare tests: tokio::test and other ::test paths, rstest,
// test_case, quickcheck, wasm_bindgen_test), its #[bench] functions, the
// functions of its quickcheck! and proptest! blocks, the doc tests of its
// items, and, in Result.Facts, its `mod x;` declarations, its
// macro_rules! that declare tests and its item-level macro invocations
// (the Linker expands them, since the macro may live in another file).
//
// Names are relative to the file's own module (tests::it_works; a doc
// test's Name is the item path and its Local "item (line N)"); the Linker
// prefixes the module path and sets Scope once the crate's module tree is
// known. The zero value is ready to use and safe for concurrent use.
type Extractor struct{}

// Framework returns testdex.Cargo.
func (Extractor) Framework() testdex.Framework { return testdex.Cargo }

// CacheKey changes whenever the extractor's output does.
func (Extractor) CacheKey() string { return "rust/7" }

// Extract parses f and returns its tests and module facts. It never
// panics: invalid UTF-8 or NUL bytes give an error Problem and no tests; a
// syntax error gives an error Problem with its line and the tests read
// around it.
func (e Extractor) Extract(f *lang.File) (res lang.Result) {
	defer func() {
		if r := recover(); r != nil {
			res = lang.Result{Problems: []testdex.Problem{problem(0, fmt.Sprintf("internal error reading this file (please report it): %v", r))}}
		}
	}()
	if bytes.IndexByte(f.Data, 0) >= 0 || !utf8.Valid(f.Data) {
		return lang.Result{Problems: []testdex.Problem{problem(0, "not a Rust source (binary or invalid UTF-8); rustc would reject it too")}}
	}
	tree, err := tsgrammars.Parse(tsgrammars.Rust, f.Data)
	if err != nil {
		return lang.Result{Problems: []testdex.Problem{problem(0, "cannot parse: "+err.Error())}}
	}
	defer tree.Close()
	root := tree.RootNode()
	w := &walker{src: f.Data, names: map[string]bool{}}
	w.container(root, scope{})
	w.resolveApplies()
	if root.HasError() {
		line := firstError(root)
		res.Problems = append(res.Problems, problem(line, "syntax error; the tests around it may be missing (fix the file: cargo would not build it)"))
	}
	res.Tests = w.tests
	res.Facts = encodeFacts(w.facts)
	return res
}

func problem(line int, msg string) testdex.Problem {
	return testdex.Problem{Severity: testdex.SevError, Line: line, Message: msg}
}

// firstError returns the 1-based line of the first ERROR or MISSING node,
// descending only into subtrees that contain one.
func firstError(n *sitter.Node) int {
	for {
		if n.IsError() || n.IsMissing() {
			return int(n.StartPoint().Row) + 1
		}
		var next *sitter.Node
		for i := 0; i < int(n.ChildCount()); i++ {
			c := n.Child(i)
			if c.IsError() || c.IsMissing() || c.HasError() {
				next = c
				break
			}
		}
		if next == nil {
			return int(n.StartPoint().Row) + 1
		}
		n = next
	}
}
