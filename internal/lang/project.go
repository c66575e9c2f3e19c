package lang

import (
	"sort"
	"strings"

	"github.com/testdex/testdex"
)

// A Detector recognises one ecosystem's projects (Go modules, npm packages,
// Python projects, crates, Maven and Gradle builds) and says which of their
// files are tests of which framework. It reads manifests and configuration
// files; it never runs project code. Implementations are package-level
// values, safe for concurrent use.
type Detector interface {
	// Ecosystem names it: "go", "node", "python", "cargo", "java", "semtest".
	Ecosystem() string
	// Manifests are the file names that make a folder a project root of this
	// ecosystem, in order of preference (package.json; pyproject.toml,
	// setup.cfg, pytest.ini, tox.ini, setup.py; ...). nil means the
	// ecosystem has no manifests: it has one project, at the listed root.
	Manifests() []string
	// Extensions are the file name suffixes worth considering at all (".py",
	// ".go", ".spec.md"): a cheap filter applied during the walk.
	Extensions() []string
	// Detect reads the project in dir. manifests names the manifest files
	// present there (empty for the root fallback project: files of this
	// ecosystem with no manifest above them). Problems are returned as data
	// (a package.json that does not parse); a nil Project means "not a
	// project of this ecosystem after all" (a pyproject.toml of a tool that
	// is not Python-testable, say) and the search goes on upward.
	Detect(env *DetectEnv, dir string, manifests []string) (*Project, []testdex.Problem)
}

// DetectEnv is what a Detector may read besides the project folder.
type DetectEnv struct {
	// Root is the absolute listed root.
	Root string
	// ReadFile reads a file; detectors use it rather than os.ReadFile so
	// that tests can fake a tree.
	ReadFile func(abs string) ([]byte, error)
	// Options are testdex.toml's settings for the ecosystem's frameworks,
	// keyed by framework; nil when absent.
	Options map[testdex.Framework]FrameworkOptions
}

// FrameworkOptions are testdex.toml's per-framework settings. nil slices
// mean "not set".
type FrameworkOptions struct {
	TestMatch              []string
	TestPathIgnorePatterns []string
	Disabled               bool
	Extra                  map[string][]string
}

// Project is a detected project: a folder, its name, and the frameworks
// its test files belong to.
type Project struct {
	// Dir is the absolute project folder.
	Dir string
	// Name is the project's own name (Go module path, npm package name,
	// crate name); "" when it has none.
	Name string
	// Manifest is the manifest file name ("" for a root fallback project).
	Manifest string
	// Frameworks are tried in order; a file belongs to the first whose
	// Match accepts it.
	Frameworks []*Setup
	// Load reads and extracts a file that is not a test file (a helper
	// module a test class inherits from) through the core's cache, for a
	// Linker. abs is absolute. The core sets it before linking; nil means
	// the Linker reads the file itself. It is safe for concurrent use.
	Load func(abs string, ex Extractor, s Settings) (Result, error)
	// Grapher finds what the project's files depend on, for `testdex
	// affected`; nil means no evidence: any change in the project affects
	// all its tests (safe, not precise).
	Grapher Grapher
	// Spanner cuts the project's source files into functions with
	// canonical hashes, for the coverage index; nil when none.
	Spanner Spanner
	// Subprojects are projects of the same build in folders below Dir that
	// hold none of the Detector's Manifests, so the upward search for a
	// manifest passes them by: a Gradle subproject that the root's
	// subprojects {} block configures, or whose settings give its build
	// file another name; a Maven module whose POM is not pom.xml. The core
	// assigns a file to the innermost one whose Dir holds it, else to the
	// project itself. Each is complete, as Detect would return it.
	Subprojects []*Project
}

// Setup is one framework as a project configures it.
type Setup struct {
	Framework testdex.Framework
	Extractor Extractor
	// Match reports whether a file is a test file of this framework in this
	// project. rel is relative to Project.Dir, slash-separated. It applies
	// the framework's own rules (testMatch, testpaths, norecursedirs, ...).
	Match func(rel string) bool
	// Settings are project-level settings that change what Extract returns
	// (pytest's python_functions, ...). They are passed in File.Settings
	// and are part of the cache key.
	Settings Settings
	// Linker completes records that need more than one file; nil for none.
	Linker Linker
	// Lister asks the framework itself for its tests (the runtime method);
	// nil when the framework cannot list without running the tests.
	Lister Lister
	// Runner runs the framework's tests; nil when testdex cannot run them
	// yet.
	Runner Runner
	// Patterns describes Match for messages ("**/*_test.go").
	Patterns []string
	// Duplicates says that the framework runs every test declared under
	// a name its file already declared (the JavaScript runners do): such
	// records, but suites and dynamic ones, are all listed, with one ID,
	// the extractor warning of them. Otherwise only the first is listed.
	Duplicates bool
	// Lenient lists suffixes of files that are listed when named
	// explicitly even though Match rejects them (semtest: ".md"), with a
	// warning; a named file of no lenient suffix is skipped with a warning.
	Lenient []string
}

// Settings are string-valued options; nil means none.
type Settings map[string][]string

// Key renders the settings deterministically for the cache key.
func (s Settings) Key() string {
	if len(s) == 0 {
		return ""
	}
	keys := make([]string, 0, len(s))
	for k := range s {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(strings.Join(s[k], "\x1f"))
		b.WriteByte('\x1e')
	}
	return b.String()
}

// A Linker completes, once per project and framework, what a single file
// cannot know: a Rust file's module path from the crate's mod tree, test
// methods a class inherits from bases declared in other files, pytest node
// IDs relative to the rootdir. It edits the results in place (renaming,
// adding or dropping tests; setting Scope) and must be deterministic.
type Linker interface {
	Link(p *Project, files []*Linked) []testdex.Problem
}

// Linked is one file's extraction result handed to a Linker. Rel is
// relative to the project folder; RootRel to the listed root.
type Linked struct {
	Rel, RootRel string
	Result       *Result
	// Alone is true for a file named on its own whose folder the listing
	// did not read: the folder's other files, which a Linker may need,
	// are not among the files linked (Project.Load reads them).
	Alone bool
}
