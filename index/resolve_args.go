package index

import (
	"strings"

	"github.com/testdex/testdex"
)

// NoMatchError reports a selection that matched nothing: an ID the listing
// does not hold, or paths without tests. Callers add the hint that fits
// them ("run 'testdex list'", "call discover_tests").
type NoMatchError struct {
	// ID is the unknown ID, or "" when Paths matched nothing.
	ID    string
	Paths []string
}

func (e *NoMatchError) Error() string {
	if e.ID != "" {
		return "no tests match " + quote(e.ID)
	}
	return "no tests under " + strings.Join(e.Paths, " ")
}

func quote(s string) string { return `"` + strings.ReplaceAll(s, `"`, `\"`) + `"` }

// Resolve selects what `testdex run` and the MCP run_tests tool run: each
// ID with its descendants, every test under each root-relative path, and
// everything when both are empty. An unknown ID, or paths that hold no
// test, is a *NoMatchError; an empty index is a *NoTestsError.
func (ix *Index) Resolve(ids, paths []string) ([]testdex.Test, error) {
	if len(ids)+len(paths) == 0 {
		return ix.Tests, ix.NoTests()
	}
	known := make(map[string]bool, len(ix.Tests))
	for _, t := range ix.Tests {
		known[t.ID] = true
	}
	var out, extra []testdex.Test
	var listed []string
	for _, id := range ids {
		switch {
		case known[id]:
			listed = append(listed, id)
		default:
			t, ok := ix.underListed(id)
			if !ok {
				return nil, &NoMatchError{ID: id}
			}
			extra = append(extra, t)
		}
	}
	if len(listed) > 0 {
		byID, err := ix.Select(Filter{IDs: listed})
		if err != nil {
			return nil, err
		}
		out = append(out, byID...)
	}
	out = append(out, extra...)
	if len(paths) > 0 {
		under := Under(ix.Tests, paths)
		if len(under) == 0 {
			return nil, &NoMatchError{Paths: paths}
		}
		out = append(out, under...)
	}
	return out, nil
}

// idSeparators end a parent's key inside a child's, across frameworks.
var idSeparators = []string{"/", " > ", "::", "["}

// underListed makes a record for an ID the listing does not hold but that
// names a test under a listed one: a row or subtest known only at run time
// (its ID came from a run's results, as `testdex failures` shows it). The
// record has the ancestor's file, framework, scope and project, its own
// name, and no Run selector: runners build one from the name.
func (ix *Index) underListed(id string) (testdex.Test, bool) {
	byID := make(map[string]*testdex.Test, len(ix.Tests))
	for i := range ix.Tests {
		byID[ix.Tests[i].ID] = &ix.Tests[i]
	}
	for cut := len(id); cut > 0; {
		best := -1
		for _, sep := range idSeparators {
			if i := strings.LastIndex(id[:cut], sep); i > best {
				best = i
			}
		}
		if best <= 0 {
			return testdex.Test{}, false
		}
		if a := byID[id[:best]]; a != nil && !a.Dynamic {
			kind := testdex.KindSubtest
			if a.Kind == testdex.KindSuite {
				kind = testdex.KindTest
			}
			return testdex.Test{ID: id, Framework: a.Framework, Kind: kind, Scope: a.Scope, Name: a.Name + id[best:],
				Parent: a.ID, File: a.File, Line: a.Line, Tags: []string{}, Project: a.Project}, true
		}
		cut = best
	}
	return testdex.Test{}, false
}
