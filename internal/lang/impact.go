package lang

import (
	"path/filepath"

	"github.com/testdex/testdex"
)

// A Grapher finds, without running anything, what a project's files
// depend on: the edges of the impact graph that `testdex affected` joins
// with a change (package changes). It reads sources and manifests; like an
// Extractor it never executes project code. One Grapher serves a whole
// project (a pytest and a unittest framework of one Python project share
// their imports); the Detector sets Project.Grapher.
//
// Safety before savings: an edge a Grapher cannot resolve (a dynamic
// import, a computed path) is never dropped. It becomes an edge to
// AnyNode, which a change anywhere in the project reaches, or, for a
// name that resolves to no file today, to UnresolvedNode, which an added
// or deleted file of the project reaches.
type Grapher interface {
	Graph(in *GraphInput) (*Graph, error)
}

// A Differ is a Grapher that can narrow the change of a modified file
// to what changed in it, given the file's content at the base revision:
// the declarations of a Go file whose canonical hashes differ, rather
// than the file and its folder's owner. The edges that lead from those
// nodes to the test files (a call graph, say) come with the Diff: they
// cost more than the project's graph and only the changed files' part
// of the tree needs them.
//
// Safety before savings: a Differ narrows only what it can prove (a
// changed import, build constraint or cgo preamble, a declaration a
// directive ties to others, keep the whole file); it returns a nil Diff
// when it cannot, and the change then counts as any change does.
type Differ interface {
	// Diff narrows the modification of file (root-relative, a file of
	// the project); old is its content at the base revision.
	Diff(in *GraphInput, file string, old []byte) (*Diff, error)
}

// Diff is the narrowed change of one modified file.
type Diff struct {
	// Start are the nodes the change reaches, instead of the file and
	// its folder's owner; none when nothing that matters changed (a
	// comment, the formatting).
	Start []string
	// Graph holds the edges from the Start nodes' users up to the test
	// files, added to the project's graph (its special nodes are the
	// project's, as in Graph).
	Graph *Graph
}

// GraphInput is one project as a Grapher sees it.
type GraphInput struct {
	Project *Project
	// Root is the absolute listed root; node keys are relative to it.
	Root string
	// Files are the project's test files (root-relative), whose tests
	// the selection is about. A Grapher reads what they import from disk.
	Files []string
	// ReadFile reads a file by absolute path (tests fake a tree with it).
	ReadFile func(abs string) ([]byte, error)
	// Cache keeps the Graphers' per-file scan results between runs (see
	// ScanCache and Scan); nil keeps none.
	Cache ScanCache
	// Env is the environment of the toolchain commands a BuildChecker
	// runs (the go command, for export data); nil inherits testdex's.
	Env []string
	// CacheDir is the listing's cache folder ("" when off), where testdex
	// keeps what it learnt running the tests (the files an agent read to
	// judge a spec), for a Grapher that uses it.
	CacheDir string
}

// NodeKey is the node key of the file or folder abs under root: its
// root-relative, slash-separated path ("." for root itself); abs itself,
// slash-separated, when it cannot be made relative (another volume).
func NodeKey(root, abs string) string {
	r, err := filepath.Rel(root, abs)
	if err != nil {
		return filepath.ToSlash(abs)
	}
	return filepath.ToSlash(r)
}

// Graph is what a project's files depend on.
//
// Node keys are root-relative, slash-separated file paths, or other
// units a Grapher names with a prefix of its own ("go:example.com/m/pkg"
// for a Go package). Edges point from the user to the used: a test file
// imports a module, a package depends on the packages it imports, a
// package node uses each of its files.
type Graph struct {
	Edges []Edge
	// Owners map a root-relative folder to the node a change of any file
	// in it reaches, the added and deleted ones included (a Go package's
	// folder to its package node). A key may also be a folder, "/*" and a
	// file name suffix ("pkg/*_test.go", "./*_test.go" for the root): the
	// files of that folder whose names end with the suffix reach its node
	// instead of the folder's (a Go package's test files reach its test
	// binary, not the packages that import it); the longest suffix wins.
	// A key "dir/**" owns every file below dir whose own folder has no
	// owner, at any depth (a testdata tree: a file deleted with its
	// folder still reaches it); the nearest such folder wins.
	Owners map[string]string
	// Global are the project-relative globs of files whose change affects
	// every test of the project (go.mod, package.json, lock files,
	// configuration, a root conftest.py). They may lie outside the
	// project's folder ("../go.work", a workspace's lock file).
	Global []string
	// Tests name the nodes that are one test of a test file (a Go test
	// function), so that a change reaching a test file only through the
	// edges File → Node of its tests selects those tests and the records
	// below them, not the whole file. Any other edge into a test file
	// (its package, its test binary, an import) selects it whole, as
	// does a test node whose Name no listed record of File has.
	Tests []TestNode
	// Problems are files the Grapher could not read or parse: their
	// edges are replaced by an edge to AnyNode (conservative), and the
	// problem is reported.
	Problems []testdex.Problem
}

// Edge says From uses To, and Why in a few words ("import", "conftest",
// "jest.mock", "embed", "same package").
type Edge struct {
	From, To, Why string
}

// TestNode says Node is the test named Name (a top-level record's Name,
// in the runner's terms: "TestParse") declared in the test file File
// (root-relative). The Grapher gives the edge File → Node as well.
type TestNode struct {
	Node, File, Name string
}

// The special nodes of a Graph.
const (
	// AnyNode is reached by a change to any file of the project.
	AnyNode = "*"
	// UnresolvedNode is reached by an added, deleted or renamed file of
	// the project: an import that resolves to no file today may resolve
	// to a new one (or did resolve to a deleted one).
	UnresolvedNode = "?"
)

// A BuildChecker is a Grapher that can tell whether a changed file, as it
// is now, breaks the build of the units that compile it: a syntax error,
// a NUL byte, a call to a name that is declared nowhere, a Go package
// that no longer type-checks. A unit that does not build fails every test
// that uses it, whatever the narrowing (lang.Differ) or the recorded
// coverage say of the change: those reason about code that runs, and a
// build failure runs nothing. So the selection walks from each Break's
// node over the project's graph and selects whole test files.
//
// Safety before savings: a check that cannot be done (no toolchain, an
// import it cannot load) reports the unit as possibly broken, and says
// so in the Break's Why.
type BuildChecker interface {
	// Broken checks the changed file (root-relative, a file of the
	// project, present on disk). old is its content at the base revision,
	// nil when unknown (an added file, a change named with --files): it
	// tells whether the file's interface changed, which decides whether
	// the units that use the file's unit need checking too. None when
	// everything builds, as far as the checker can tell.
	Broken(in *GraphInput, file string, old []byte) []Break
}

// Break says the build of a unit fails with a change.
type Break struct {
	// Node is the unit's node in the project's Graph (a Go package's
	// "go:example.com/m/a", its test binary's "go:example.com/m/a.test",
	// a Maven module's "module:core"): every test file that reaches it
	// over the graph's edges is affected, whole.
	Node string
	// Why says what fails and what it selects, in words: "a/a.go does
	// not type-check: a/a.go:5:14: undefined: undefined; every test of
	// example.com/m/a and its importers".
	Why string
}

// A Reacher is a Grapher that can tell, from its static reference graph
// (calls, references to functions and methods, function values,
// package-level variables' initialisers), whether code that ran in some
// functions can reach another function. Selection asks it for tests that
// share a process: a test can be served by what an earlier test of its
// process left (a cache, a sync.Once) only through code it ran itself, so
// a changed function no function it ran can reach cannot matter to it.
//
// Safety before savings: the graph errs on the side of more edges (a
// selector reaches every method of that name, an interface call every
// implementation), and known is false whenever it cannot answer (a
// function or file outside the graph, a //go:linkname, a graph that could
// not be read): the caller then keeps its wide rule.
type Reacher interface {
	// Reaches reports whether one of from can reach to (to itself
	// included). known is false when the answer is not certain.
	Reaches(in *GraphInput, from []FuncRef, to FuncRef) (reached, known bool)
}

// FuncRef names one function of a file as a Spanner names it (a Go
// method "T.M"), the file root-relative. An empty Name stands for code of
// the file outside its functions (a package-level variable's function
// literal): every declaration of the file.
type FuncRef struct {
	File, Name string
}
