package changes

import (
	"context"
	"fmt"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// narrow asks the Graphers that can (lang.Differ) what each modified file
// with a known base revision changed in it: the nodes its change reaches
// instead of the file and its folder's owner (a Go file's changed
// declarations), with the edges that lead from them to the test files,
// kept apart for the narrowed walk. A file is narrowed only when every
// project that uses it (its folder, or an edge to it: GOROOT's cmd
// module uses the standard library's files) narrows it; otherwise it
// counts whole, for all: safety before savings.
func (g *Graph) narrow(root string, set Set) map[string][]string {
	out := map[string][]string{}
	for _, c := range set {
		if c.Status != Modified || c.Base == "" {
			continue
		}
		var users []*project
		for _, p := range g.projects {
			if p.evidence && (p.in(c.Path) || p.mentions[c.Path]) {
				users = append(users, p)
			}
		}
		if len(users) == 0 {
			continue
		}
		old, err := showFile(context.Background(), root, c.Base, c.Path)
		if err != nil {
			continue
		}
		var diffs []*lang.Diff
		for _, p := range users {
			d, ok := p.grapher.(lang.Differ)
			if !ok {
				break
			}
			diff, err := d.Diff(p.input, c.Path, old)
			if err != nil {
				g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: c.Path,
					Message: fmt.Sprintf("impact graph: %v; the whole file counts as changed", err)})
			}
			if diff == nil {
				break
			}
			diffs = append(diffs, diff)
		}
		if len(diffs) < len(users) {
			continue
		}
		starts := []string{}
		for i, diff := range diffs {
			if diff.Graph != nil {
				g.addNarrow(users[i], diff.Graph)
			}
			starts = append(starts, diff.Start...)
		}
		out[c.Path] = starts
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
	g.addTests(lg.Tests)
}
