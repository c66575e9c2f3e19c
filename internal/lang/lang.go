// Package lang defines the plugin contract between the discovery core
// (package index) and the per-language extractors under internal/lang/*.
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
}

// Test is a record as an extractor produces it: the core turns Name into an
// ID (testdex.MakeID(file, Name)) and Parent, a Name too, into the parent's ID.
type Test struct {
	Kind    testdex.Kind
	Name    string // native full name: TestFoo/sub_case
	Parent  string // native full name of the parent, "" at top level
	Line    int
	Dynamic bool
	Skip    bool
	Tags    []string
	Run     string // native selector (Go -run pattern)
	Spec    *testdex.SpecMeta
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
}

// Extractor finds the tests declared in one kind of file without running
// anything. Implementations are safe for concurrent use.
type Extractor interface {
	// Framework is the framework of the records it produces.
	Framework() testdex.Framework
	// TestMatch and TestPathIgnorePatterns are the default include and
	// exclude globs (doublestar syntax, root-relative) that select candidate
	// files on the walk; configuration may replace them.
	TestMatch() []string
	TestPathIgnorePatterns() []string
	// CacheKey identifies the extractor's version and every option that
	// changes its output, so cached results are reused only when equal.
	CacheKey() string
	// Extract reads the tests of one file. It never panics on bad input.
	Extract(f *File) Result
}
