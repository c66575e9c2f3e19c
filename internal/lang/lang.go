// Package lang defines the plugin contract between the generic code
// (packages index, changes, run, the CLI) and the languages under
// internal/lang/*: a Detector per ecosystem finds projects and says which
// files belong to which framework, an Extractor per language reads one
// file's tests, and an optional Linker completes what needs several files.
// Each language is one plain value, a Language: its Detector and its
// Frameworks, whose facts and naming rules (Framework, Naming) are what
// the generic code would otherwise know by the framework's name. Package
// languages registers them in one list.
//
// An extractor sees one file at a time and only that file's bytes: its
// result may be cached by content hash plus [Extractor.CacheKey], so it must
// not depend on anything else (other files, go.mod, the clock). Facts that
// depend on the surroundings (the Go import path, the project, the ID) are
// filled in by the core after extraction.
package lang

import "github.com/testdex/testdex"

// File is one candidate file handed to an extractor.
type File struct {
	// Rel is the root-relative, slash-separated path; Abs the absolute one.
	Rel, Abs string
	// Data is the whole content. Extractors must not retain or modify it.
	Data []byte
	// Framework is the framework the file's project assigned it to; an
	// extractor serving several frameworks (JavaScript) reads it.
	Framework testdex.Framework
	// Settings are the project's settings for that framework (Setup.Settings).
	Settings Settings
}

// Test is a record as an extractor (and then a Linker) produces it. The
// core builds the ID from the file and the test's key, Local when set and
// Name otherwise: testdex.MakeID(file, key). Parent is the parent's key.
type Test struct {
	Kind testdex.Kind
	Name string // native full name: TestFoo/sub_case, tests/test_a.py::TestC::test_m
	// Local is the name within the file when Name carries more (pytest's
	// node ID starts with the file's path from the rootdir); "" means Name.
	Local  string
	Parent string // key of the parent, "" at top level
	Scope  string // native scope (Go import path, JUnit class); "" when none
	// WholeFile marks a test that is its file (a markdown spec): its ID is
	// the file's path alone.
	WholeFile bool
	Line      int
	Dynamic   bool
	Skip      bool
	Only      bool   // focused (test.only); see testdex.Test.Only
	Variant   string // "each", "pick" or ""; see testdex.Test.Variant
	Tags      []string
	Run       string // native selector (Go -run pattern)
	Spec      *testdex.SpecMeta
	Meta      map[string]string // testdex.Test.Meta
}

// Result is what an extractor found in one file. Problems are per-file
// diagnostics with Path left empty (the core fills it in); an error Problem
// may come with a partial list of tests.
type Result struct {
	Tests    []Test
	Problems []testdex.Problem
	// Package is a language-specific grouping fact taken from the content,
	// such as the Go package clause (foo or foo_test); "" when not relevant.
	Package string
	// Facts are language-specific facts for the Linker (a Rust file's mod
	// declarations, the bases of Python or Java classes), opaque to the
	// core and cached with the result.
	Facts []byte
}

// Key is the test's key within its file: Local, or Name when Local is "".
func (t *Test) Key() string {
	if t.Local != "" {
		return t.Local
	}
	return t.Name
}

// Extractor finds the tests declared in one kind of file without running
// anything. Which files it sees is the Detector's business (Setup.Match).
// Implementations are safe for concurrent use.
type Extractor interface {
	// Framework is the framework of the records it produces.
	Framework() testdex.Framework
	// CacheKey identifies the extractor's version and every option that
	// changes its output, so cached results are reused only when equal.
	CacheKey() string
	// Extract reads the tests of one file. It never panics on bad input.
	Extract(f *File) Result
}

// A Rechecker is an Extractor whose results depend on more than the file
// and its CacheKey: on files it reads while extracting, which it cannot
// name before. Fresh reports whether a cached result of it still holds
// (those files read the same now); a cache treats a result that does not
// as missing, extracts the file again and keeps the new result.
type Rechecker interface {
	Extractor
	Fresh(cached Result) bool
}
