package index

import (
	"path"
	"strings"

	"github.com/testdex/testdex"
)

// NoMatchError reports a selection that matched nothing: an ID that names
// no test, or paths without tests. Callers add the hint that fits them
// ("run 'testdex list'", "call discover_tests").
type NoMatchError struct {
	// ID is the unknown ID, or "" when Paths matched nothing.
	ID    string
	Paths []string
}

func (e *NoMatchError) Error() string {
	if e.ID != "" {
		return "no test matches " + quote(e.ID)
	}
	return "no tests under " + strings.Join(e.Paths, " ")
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Selection is what a run asked for, resolved against the listing: paths
// whose tests run whole (the framework is handed the paths, so its own
// configuration decides what runs there) and tests named by ID (the
// framework is handed their names).
type Selection struct {
	// Paths are root-relative, slash-separated files and folders; "." is
	// everything.
	Paths []string
	// Tests are the records named by ID: listed, or made by the ID rules
	// for an ID the listing does not hold (Seen ["runtime"]).
	Tests []testdex.Test
	// Within, when set, are the root-relative paths of the run the
	// selection narrows (the tests a change affects narrow the whole
	// root's run): Plan gives each batch its part of them as
	// lang.Selection.Within, so that a runner keeps the project's own
	// collection rules for the narrower selection.
	Within []string
}

// Resolve selects what `testdex run` and the MCP run_tests tool run: each
// ID with its descendants, the tests under each root-relative path, and
// everything when both are empty. An ID that cannot name a test (its file
// is no test file of the listing), or paths that hold no test file, is a
// *NoMatchError; an index without test files is a *NoTestsError (test
// files whose tests the static listing missed still run: the runner says
// what they hold).
func (ix *Index) Resolve(ids, paths []string) (*Selection, error) {
	if len(ids)+len(paths) == 0 {
		if len(ix.Files) > 0 { // test files whose tests the listing did not see still run
			return &Selection{Paths: []string{"."}}, nil
		}
		return &Selection{Paths: []string{"."}}, ix.NoTests()
	}
	sel := &Selection{}
	n := ix.NewNamer()
	for _, id := range ids {
		t, ok := n.ForID(id)
		if !ok {
			return nil, &NoMatchError{ID: id}
		}
		sel.Tests = append(sel.Tests, t)
	}
	for _, p := range paths {
		p = cleanRel(p)
		if !ix.holdsTests(p) {
			return nil, &NoMatchError{Paths: paths}
		}
		sel.Paths = append(sel.Paths, p)
	}
	return sel, nil
}

// cleanRel cleans a root-relative path: "./a/" is "a", "" is ".".
func cleanRel(p string) string { return path.Clean("./" + strings.TrimSuffix(p, "/")) }

// under reports whether the root-relative path p is dir or lies inside it.
func under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// holdsTests reports whether a root-relative path is or holds a test file
// of the listing.
func (ix *Index) holdsTests(p string) bool {
	for _, f := range ix.Files {
		if under(f.Path, p) {
			return true
		}
	}
	return false
}
