package changes

import (
	"errors"
	"fmt"

	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
)

// SelectRecorded selects from the per-test coverage recorded under
// cacheDir for the listing's root (SelectCovered) where there is some,
// else from the static evidence alone (Select). note says why recorded
// coverage could not be used when there was some ("" otherwise): the CLI
// prints it, the MCP server returns it. One function, so that `affected`,
// `run --affected` and the MCP tool decide alike.
func (g *Graph) SelectRecorded(ix *index.Index, set Set, cacheDir string) (affected []Affected, note string) {
	if cacheDir == "" {
		return g.Select(ix, set), ""
	}
	cov, err := coverage.Open(coverage.Path(cacheDir, ix.Root), coverage.Options{ReadOnly: true})
	switch {
	case errors.Is(err, coverage.ErrNoData):
		return g.Select(ix, set), ""
	case err != nil:
		return g.Select(ix, set), fmt.Sprintf("%v; the static evidence alone decides", err)
	}
	defer cov.Close()
	affected, err = g.SelectCovered(ix, set, cov)
	if err != nil {
		return g.Select(ix, set), fmt.Sprintf("%v; the static evidence alone decides (run 'testdex run --coverage' to rebuild the index)", err)
	}
	return affected, ""
}
