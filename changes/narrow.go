package changes

import (
	"context"
	"fmt"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// narrow asks the Graphers that can (lang.Differ) what each modified file
// of theirs with a known base revision changed in it: the nodes its
// change reaches instead of the file and its folder's owner (a Go file's
// changed declarations), with the edges that lead from them to the test
// files, which it adds to the graph. A file it cannot narrow is absent
// from the result and counts whole: safety before savings.
func (g *Graph) narrow(root string, set Set) map[string][]string {
	out := map[string][]string{}
	for _, c := range set {
		if c.Status != Modified || c.Base == "" {
			continue
		}
		for _, p := range g.projects {
			d, ok := p.grapher.(lang.Differ)
			if !p.evidence || !ok || !p.in(c.Path) {
				continue
			}
			old, err := showFile(context.Background(), root, c.Base, c.Path)
			if err != nil {
				continue
			}
			diff, err := d.Diff(p.input, c.Path, old)
			if err != nil {
				g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: c.Path,
					Message: fmt.Sprintf("impact graph: %v; the whole file counts as changed", err)})
			}
			if diff == nil {
				continue
			}
			if diff.Graph != nil {
				g.addNarrow(p, diff.Graph)
			}
			out[c.Path] = append(out[c.Path], diff.Start...)
			if out[c.Path] == nil {
				out[c.Path] = []string{}
			}
		}
	}
	return out
}

// addNarrow adds a Diff's edges to the narrowed walk's graph.
func (g *Graph) addNarrow(p *project, lg *lang.Graph) {
	if g.narrowUsers == nil {
		g.narrowUsers = map[string][]use{}
	}
	for _, e := range lg.Edges {
		from, to := g.node(p, e.From), g.node(p, e.To)
		g.narrowUsers[to] = append(g.narrowUsers[to], use{from: from, why: e.Why})
	}
}
