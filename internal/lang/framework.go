package lang

import (
	"strings"

	"github.com/testdex/testdex"
)

// Language is one language as the generic code knows it: a plain value,
// declared in its package (golang.Language, python.Language, ...) and
// registered in one list (package languages), after go/analysis'
// Analyzer. The generic code (index, changes, the CLI) reads its facts and
// calls its functions; it knows no framework by name.
//
// The optional capabilities that depend on the project found (a Grapher,
// a Spanner, a Linker, a Lister, a Runner and its Coverer, Reuser and
// LinkGuard methods) stay where the Detector sets them, on the Project
// and the Setup it returns: they carry the project's settings (build
// tags, testMatch, the interpreter found), which a package-level value
// cannot hold, and an optional method of a Runner is asked for by a type
// assertion because a Runner that has it is one value (the Coverer is the
// Runner run with coverage on), not two fields that could disagree.
type Language struct {
	// Detector finds the language's projects and assigns their files to
	// its frameworks.
	Detector Detector
	// Frameworks are the frameworks its Detector may assign files to, in
	// the order the CLI lists them.
	Frameworks []*Framework
	// Bodies, when set, says where the language's functions' bodies lie
	// in its source files, so that coverage may decide a change to one;
	// nil: the static evidence decides every change to its files.
	Bodies *Bodies
}

// Framework is what the generic code knows of one test framework besides
// its Setup: how its tests are named and how its runner reports them.
// The zero value of every field but Name is the common case.
type Framework struct {
	// Name is the framework's name in records, events, `--framework` and
	// testdex.toml's tables.
	Name testdex.Framework
	// Naming builds the framework's ID rules over one listing (see
	// Naming); nil means GenericNaming with DefaultSeps.
	Naming func(l *Listing) Naming
	// FolderIDs says that an ID may start with a folder of the listing's
	// test files rather than with a file: Go's, for a test only the
	// runner reported, which is known by its package.
	FolderIDs bool
	// FolderRuns says that the runner runs a file through its folder: a
	// file selected by path whose tests are not listed runs every test of
	// its folder (go test selects packages, not files). A split into
	// shards then never selects such a file beside its folder's others.
	FolderRuns bool
	// SetupPerFile says that most of what a run of this framework costs
	// besides its tests grows with the files it runs (pytest and unittest
	// import and collect each module, the JavaScript runners transform
	// and load each file), not a fixed start (a JVM and Maven's
	// lifecycle, a cargo build): a split into shards then charges a
	// shard a fixed start plus its files' share of the recorded setup,
	// not the whole setup once per shard.
	SetupPerFile bool
	// ParentsReport says that a parent whose children are listed reports
	// a result of its own, which the runner counts (a Go test with
	// subtests); otherwise its children report in its place (a
	// parametrized test's rows, a describe block's tests).
	ParentsReport bool
	// RowsRunByID says that the rows of a test, named only at run time
	// (pytest's parameter IDs), run by the ID they were recorded under, so
	// a selection may name some rows of a listed test without the rest.
	RowsRunByID bool
	// Labels are the separators that begin what a child's key adds to its
	// parent's ("/" of a Go subtest, " > " between JavaScript titles), which
	// the tree view leaves out of the child's label.
	Labels []string
	// AllPlatforms says that the framework lists platform-dependent tests
	// (build constraints, cfg attributes) and takes the all_platforms
	// option, which `--all-platforms` sets.
	AllPlatforms bool
	// Specs says that testdex.toml's [specs] table (the agent that judges)
	// configures the framework: its keys reach the Detector as options
	// named "specs.KEY".
	Specs bool
	// Repeats says that the framework's runner repeats each test itself
	// when asked to (RunOptions.Repeat: a spec judged K times, with its
	// agreement); `run --repeat` runs the other frameworks' tests again
	// in new processes.
	Repeats bool
	// Section, when set, finds a record's text in its file's content, for
	// a framework whose tests are sections of a document rather than
	// functions (a spec's body, or its scenario's section): the first and
	// last lines (1-based, inclusive) and the text. An error says the
	// record is no longer in the file. nil: the function the project's
	// Spanner finds around the record's line, else a window of lines.
	Section func(t testdex.Test, data []byte) (start, end int, text string, err error)
	// FromJUnit names a testcase of a JUnit XML report another tool wrote
	// (`testdex history import`) in the runner's terms: the scopes and
	// names (and declaring file, project-relative) it may stand for in a
	// project whose listed records of the framework are listed, each
	// tried against the listing; only one naming a listed test, or a test
	// under a listed one, maps it. nil: its classname and name as written.
	FromJUnit func(c JUnitCase, listed []testdex.Test) []Reported
}

// JUnitCase is a testcase of a JUnit XML report, as written: its
// testsuite's name and its classname, name and file attributes.
type JUnitCase struct {
	Suite, Class, Name, File string
}

// NamingFor returns the framework's rules over l: its Naming's, or the
// generic ones.
func (f *Framework) NamingFor(l *Listing) Naming {
	if f == nil || f.Naming == nil {
		return GenericNaming{Seps: DefaultSeps}
	}
	return f.Naming(l)
}

// IDKey is a record's key: its ID without its file and the separator
// (the whole ID for a record of no file).
func IDKey(t testdex.Test) string {
	if t.File == "" {
		return t.ID
	}
	return strings.TrimPrefix(t.ID, t.File+testdex.IDSep)
}

// ChildLabel shows a child by what its key adds to its parent's, without
// the framework's separator (seps, its Framework.Labels): TestX/case ->
// case, test_m[1] -> [1], Outer.m() -> m(), a > b -> b. The tree view and
// name matching (`--name`) show and match records by these labels.
func ChildLabel(key, parent string, seps []string) string {
	rest, ok := strings.CutPrefix(key, parent)
	if !ok || rest == "" {
		return key
	}
	for _, sep := range seps {
		if r, ok := strings.CutPrefix(rest, sep); ok {
			return r
		}
	}
	return rest
}
