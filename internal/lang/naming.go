package lang

import (
	"path"
	"strings"

	"github.com/testdex/testdex"
)

// A listed record's ID is FILE::KEY: its declaring file and its key in the
// file (see Test.Key). The generic algorithm that names a test the
// listing does not hold (package index's Namer) asks a framework's Naming
// what differs per framework: where a name splits into its ancestors,
// which file a top-level test the runner alone reported belongs to, how
// an ID's key maps back to the name the runner selects. Both directions
// (a runner's scope and name to an ID, an ID to a record a runner can
// select) meet in one value, so that every ID testdex prints is an ID
// `testdex run` takes.

// Naming is one framework's ID rules over one listing. The generic
// algorithm, for a test the listing does not hold:
//
//   - reported by a runner: Listed may find it under another name;
//     otherwise its name is cut back at Cut until a prefix names a listed
//     record (its nearest ancestor, whose ID plus Rest of the name is its
//     ID), else Outer is asked for one; at top level its file is the one
//     the runner named or TopFile, its key TopKey;
//   - named by an ID: the key is cut back at CutKey until a prefix is a
//     listed ID (Child then gives its scope and name), else Top does.
//
// GenericNaming holds the rules most frameworks share; a language embeds
// it and overrides what differs. Implementations are read-only after
// construction (runs name results concurrently).
type Naming interface {
	// Listed returns the listed record a reported test is when the runner
	// names it otherwise than the listing (a JUnit method reported
	// without its parameter types); nil when there is none.
	Listed(r Reported) *testdex.Test
	// Cut returns the index in a reported name where its parent's name
	// ends (the last separator); <= 0 when it has no parent.
	Cut(name string) int
	// Rest turns what a reported name adds to its listed ancestor's into
	// what the ID adds to the ancestor's ID.
	Rest(rest string) string
	// Outer returns the listed record a reported test with no ancestor by
	// name belongs under (a JUnit class, for a method the listing does
	// not hold) and what the ID adds to it; nil when none.
	Outer(r Reported) (*testdex.Test, string)
	// TopFile is the root-relative file (or folder) of a reported test
	// with no listed ancestor, when the runner does not name its file.
	TopFile(r Reported) string
	// TopKey is the key, in its file, of a reported test with no listed
	// ancestor.
	TopKey(r Reported) string
	// CutKey returns the index in an ID's key where its parent's key
	// ends; <= 0 when it has no parent.
	CutKey(key string) int
	// Child returns the scope and name of a test the listing does not
	// hold, named by an ID that adds rest to the ID of its listed
	// ancestor a.
	Child(a *testdex.Test, rest string) (scope, name string)
	// Top returns the scope and name of a test the listing does not hold,
	// named by an ID of key under f, a listed test file (or folder, see
	// Framework.FolderIDs); first is the first listed record of f, nil
	// when there is none.
	Top(f ListedFile, key string, first *testdex.Test) (scope, name string)
	// Run is the native selector of a record made by these rules, where
	// the runner cannot build it from the name alone; "" otherwise.
	Run(t *testdex.Test) string
}

// Listing is what a framework's Naming may read of a listing, for one
// framework.
type Listing struct {
	// Framework is the framework the Naming is built for.
	Framework testdex.Framework
	// Root is the absolute listed root.
	Root string
	// Tests are every listed record, of every framework, dynamic ones
	// included, in listing order.
	Tests []testdex.Test
	// Files are the candidate files read, of every framework.
	Files []ListedFile
	// Projects are the projects the files belong to.
	Projects []ListedProject
	// Lookup returns the listed, not dynamic record of Framework with
	// that project, scope and name; nil when there is none.
	Lookup func(project, scope, name string) *testdex.Test
}

// ListedFile is one candidate file of a listing.
type ListedFile struct {
	Path      string            `json:"path"` // root-relative
	Framework testdex.Framework `json:"framework"`
	Project   string            `json:"project"` // the project's root-relative folder
}

// ListedProject is one project of a listing.
type ListedProject struct {
	Dir  string `json:"dir"`            // root-relative
	Name string `json:"name,omitempty"` // the project's own name (a Go module path); "" when none
}

// Reported is what a runner said of one test: its project folder (root-
// relative), scope and name in the runner's terms, and, where the runner
// says it, the declaring file (root-relative) and kind.
type Reported struct {
	Project string
	Scope   string
	Name    string
	File    string
	Kind    testdex.Kind
}

// DefaultSeps are the separators the generic rules cut a name at when
// the framework has none of its own: Go's "/", JavaScript's " > ", the
// "::" of paths, a parameter row's "[".
var DefaultSeps = []string{"/", " > ", "::", "["}

// GenericNaming is the rules most frameworks share: a name splits at the
// last of Seps, an ID's key at the last of KeySeps (Seps when nil), what
// a child adds is the same in its name and in its ID, and a test with no
// listed ancestor is keyed by its name at the top of its project's folder.
type GenericNaming struct {
	Seps, KeySeps []string
}

// Listed implements Naming: no other name.
func (GenericNaming) Listed(Reported) *testdex.Test { return nil }

// Cut implements Naming: the last of Seps.
func (g GenericNaming) Cut(name string) int { return LastSep(name, g.Seps) }

// Rest implements Naming: unchanged.
func (GenericNaming) Rest(rest string) string { return rest }

// Outer implements Naming: none.
func (GenericNaming) Outer(Reported) (*testdex.Test, string) { return nil, "" }

// TopFile implements Naming: the project's folder.
func (GenericNaming) TopFile(r Reported) string { return r.Project }

// TopKey implements Naming: the name.
func (GenericNaming) TopKey(r Reported) string { return r.Name }

// CutKey implements Naming: the last of KeySeps, or of Seps.
func (g GenericNaming) CutKey(key string) int {
	if g.KeySeps != nil {
		return LastSep(key, g.KeySeps)
	}
	return LastSep(key, g.Seps)
}

// Child implements Naming: the ancestor's scope, its name and rest.
func (GenericNaming) Child(a *testdex.Test, rest string) (scope, name string) {
	return a.Scope, a.Name + rest
}

// Top implements Naming: no scope but the file's project-relative path,
// the key as the name.
func (GenericNaming) Top(f ListedFile, key string, _ *testdex.Test) (scope, name string) {
	return ProjectRel(f.Project, f.Path), key
}

// Run implements Naming: none.
func (GenericNaming) Run(*testdex.Test) string { return "" }

// LastSep returns the index of the last of seps in s, -1 when there is
// none.
func LastSep(s string, seps []string) int {
	best := -1
	for _, sep := range seps {
		if i := strings.LastIndex(s, sep); i > best {
			best = i
		}
	}
	return best
}

// ProjectRel makes a root-relative path relative to a project folder.
func ProjectRel(project, p string) string {
	if project == "." || project == "" {
		return p
	}
	return strings.TrimPrefix(p, project+"/")
}

// RootRel joins a project folder and a project-relative path.
func RootRel(project, rel string) string {
	if project == "." || project == "" {
		return path.Clean(rel)
	}
	return path.Join(project, rel)
}
