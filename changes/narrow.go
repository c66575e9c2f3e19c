package changes

import (
	"fmt"
	"slices"
	"sync"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// narrow asks the Graphers that can (lang.Differ) what each modified file
// with a known base revision, or previous content, changed in it: the nodes its change reaches
// instead of the file and its folder's owner (a Go file's changed
// declarations), with the edges that lead from them to the test files,
// kept apart for the narrowed walk. A file is narrowed only when every
// project that uses it (its folder, or an edge to it: GOROOT's cmd
// module uses the standard library's files) narrows it; otherwise it
// counts whole, for all: safety before savings.
//
// A project with more than maxNarrowed modified files is not narrowed:
// its Differ answers file by file, each answer weighing the file's whole
// package, and a change that wide (a rename across a tree, a generated
// folder) saves little by it. Its files count whole: more is selected,
// never less.
func (g *Graph) narrow(root string, set Set) map[string][]string {
	g.prefetch(root, set)
	usersOf := map[string][]*project{}
	modified := map[*project]int{}
	for _, c := range set {
		if c.Status != Modified || c.Base == "" && c.Prev == nil {
			continue
		}
		for _, p := range g.projects {
			if p.evidence && (p.in(c.Path) || p.mentions[c.Path]) {
				usersOf[c.Path] = append(usersOf[c.Path], p)
				modified[p]++
			}
		}
	}
	out := map[string][]string{}
	for _, c := range set {
		users := usersOf[c.Path]
		if len(users) == 0 || slices.ContainsFunc(users, func(p *project) bool { return modified[p] > maxNarrowed }) {
			continue
		}
		old := g.oldContent(root, c)
		if old == nil {
			continue
		}
		var diffs []*lang.Diff
		for _, diff := range g.diffs(users, c.Path, old) {
			if diff.err != nil {
				g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: c.Path,
					Message: fmt.Sprintf("impact graph: %v; the whole file counts as changed", diff.err)})
			}
			if diff.d == nil {
				break
			}
			diffs = append(diffs, diff.d)
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

// maxNarrowed bounds the modified files of one project that narrow asks
// its Differ about.
const maxNarrowed = 256

// projectDiff is one project's answer to a Diff.
type projectDiff struct {
	d   *lang.Diff
	err error
}

// diffs asks each project's Differ to narrow file, all at once: the
// projects that share a file (GOROOT's std and cmd modules) build their
// declaration graphs independently, each mostly on one core. A project
// whose Grapher is no Differ answers nil.
func (g *Graph) diffs(users []*project, file string, old []byte) []projectDiff {
	out := make([]projectDiff, len(users))
	var wg sync.WaitGroup
	for i, p := range users {
		if d, ok := p.grapher.(lang.Differ); ok {
			wg.Go(func() { out[i].d, out[i].err = d.Diff(p.input, file, old) })
		}
	}
	wg.Wait()
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
