// Package testdex holds the shared vocabulary of testdex: the test record
// that discovery produces and every consumer (the CLI, the MCP server, the
// metadata file, the runner) reads. It is plain data; the JSON tags are the
// wire format of `testdex list --json`, version [SchemaVersion].
//
// Discovery itself lives in package index; this package has no logic beyond
// small helpers on the record.
package testdex

import (
	"strconv"
	"strings"
)

// SchemaVersion is the version of the JSON Lines record written by
// `testdex list --json`. It changes only when a field changes meaning or is
// removed; adding a field keeps the version.
const SchemaVersion = 1

// Framework names the test framework (and so the native runner) a test
// belongs to.
type Framework string

// The frameworks testdex knows. Only Go and Semtest have extractors yet.
const (
	Go       Framework = "go"
	Semtest  Framework = "semtest"
	Pytest   Framework = "pytest"
	Unittest Framework = "unittest"
	Jest     Framework = "jest"
	Vitest   Framework = "vitest"
	Mocha    Framework = "mocha"
	NodeTest Framework = "node"
	Cargo    Framework = "cargo"
	JUnit    Framework = "junit"
	// SkillTest is the skill-test protocol: *.tests.mjs modules whose
	// default or runTests function returns {passed, failed, errors}, and
	// executables declared in testdex.toml printing that JSON or TAP.
	SkillTest Framework = "skilltest"
	// Glubean is the Glubean SDK's API tests: the exports of *.test.ts
	// modules importing @glubean/sdk (Deno or Node), run by the glubean CLI.
	Glubean Framework = "glubean"
)

// Kind says what sort of test a record is.
type Kind string

// The kinds of record.
const (
	KindTest      Kind = "test"      // a top-level test function or case
	KindBenchmark Kind = "benchmark" // Go BenchmarkX
	KindFuzz      Kind = "fuzz"      // Go FuzzX
	KindExample   Kind = "example"   // Go ExampleX with an output comment
	KindSubtest   Kind = "subtest"   // t.Run, a table row, a fuzz seed
	KindSpec      Kind = "spec"      // a markdown spec file (semtest)
	KindSuite     Kind = "suite"     // a container: describe block, test class
	KindDoctest   Kind = "doctest"   // a Rust documentation test, a pytest doctest (docstring or text file)
)

// Test is one discovered test: a function, a subtest, a table row, a spec
// file. Records are flat; the tree is carried by Parent.
//
// ID is unique within one listing and stable across runs over the same root;
// it is the handle `testdex run` accepts. Its form is FILE::NAME, where FILE
// is the root-relative, slash-separated path of the declaring file and NAME
// is Name; a spec file's ID is its FILE alone.
type Test struct {
	ID        string    `json:"id"`
	Framework Framework `json:"framework"`
	Kind      Kind      `json:"kind"`
	// Scope and Name are in the native runner's own terms. Go: Scope is the
	// package import path and Name is TestFoo or TestFoo/sub_case exactly as
	// `go test -json` reports it. Spec: Scope is the group, Name the file name.
	Scope string `json:"scope"`
	Name  string `json:"name"`
	// Parent is the ID of the enclosing test, empty at top level.
	Parent string `json:"parent"`
	// Dynamic is true when the name could not be known without running the
	// code; Name then holds a {placeholder} built from the source expression
	// and running the record runs its parent.
	Dynamic bool `json:"dynamic"`
	// File is the declaring file relative to the listed root; Line is 1-based.
	File string   `json:"file"`
	Line int      `json:"line"`
	Tags []string `json:"tags"`
	// Skip is true when the test is statically known to be skipped.
	Skip bool `json:"skip"`
	// Only is true when the test is statically known to be focused (Jest's
	// test.only or fit, a describe.only around it, Glubean's only: true):
	// while a file holds one, its runner runs the focused tests alone.
	Only bool `json:"only,omitempty"`
	// Variant says that the record is one row of a data-driven declaration:
	// "each" for a table (test.each, it.each, Glubean's test.each), "pick"
	// for one example of Glubean's test.pick; empty otherwise.
	Variant string `json:"variant,omitempty"`
	// Project is the folder of the project the file belongs to (its nearest
	// manifest: go.mod, package.json, ...) relative to the root; "." for the
	// root itself. It may start with "../" when the manifest lies above the
	// root.
	Project string `json:"project"`
	// Run is the native selector that runs exactly this test: for Go the
	// -run pattern (^TestFoo$/^case_1$); for others what their runner takes
	// (a pytest node ID, a Jest -t pattern, a cargo test filter with
	// --exact, a JUnit method selector).
	Run string `json:"run,omitempty"`
	// Seen says which discovery methods found the test (static, runtime);
	// set by `testdex list --exact` and `testdex check`, empty otherwise.
	Seen []string `json:"seen,omitempty"`
	// Spec carries a markdown spec's frontmatter settings.
	Spec *SpecMeta `json:"spec,omitempty"`
	// Meta holds a framework's own facts about the test that have no
	// field of their own, by the framework's names (skilltest: the skill
	// a module tests, "skillName", "shortName", "skillType", "skillDir",
	// from the declared catalog). Nil when there are none.
	Meta map[string]string `json:"meta,omitempty"`
}

// The values of Test.Seen: which discovery method found a record.
const (
	SeenStatic  = "static"  // the static method: parsed, nothing run
	SeenRuntime = "runtime" // the framework listed it, or the ID rules made it for a test a runner reported
)

// SpecMeta is the frontmatter of a markdown spec test besides its tags.
// Zero values mean the field was absent.
type SpecMeta struct {
	Timeout                   string `json:"timeout,omitempty"`
	LLM                       string `json:"llm,omitempty"`
	SkipPermissionsIfPossible *bool  `json:"skipPermissionsIfPossible,omitempty"`
}

// IDSep separates the file from the name in an ID.
const IDSep = "::"

// MakeID builds the ID of a test named name declared in file. An empty name
// gives the file alone (spec files).
func MakeID(file, name string) string {
	if name == "" {
		return file
	}
	return file + IDSep + name
}

// SplitID splits an ID into its file and name at the first "::". An ID
// without a separator is a file alone.
func SplitID(id string) (file, name string) {
	file, name, _ = strings.Cut(id, IDSep)
	return file, name
}

// Severity grades a Problem.
type Severity string

// The severities. An error means a file's tests could not (all) be read; a
// warning means the listing is complete but something deserves attention.
const (
	SevError   Severity = "error"
	SevWarning Severity = "warning"
)

// Problem is a per-path diagnostic kept as data: a file that does not parse,
// an unreadable folder, a broken symlink. Discovery records it and goes on.
type Problem struct {
	Severity Severity `json:"severity"`
	Path     string   `json:"path"`           // root-relative where possible
	Line     int      `json:"line,omitempty"` // 1-based, 0 when unknown
	Message  string   `json:"message"`
}

func (p Problem) String() string {
	loc := p.Path
	if p.Line > 0 {
		loc += ":" + strconv.Itoa(p.Line)
	}
	return p.Severity.String() + ": " + loc + ": " + p.Message
}

func (s Severity) String() string { return string(s) }
