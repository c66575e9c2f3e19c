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
	var out []testdex.Test
	if len(ids) > 0 {
		for _, id := range ids {
			if !known[id] {
				return nil, &NoMatchError{ID: id}
			}
		}
		byID, err := ix.Select(Filter{IDs: ids})
		if err != nil {
			return nil, err
		}
		out = append(out, byID...)
	}
	if len(paths) > 0 {
		under := Under(ix.Tests, paths)
		if len(under) == 0 {
			return nil, &NoMatchError{Paths: paths}
		}
		out = append(out, under...)
	}
	return out, nil
}
