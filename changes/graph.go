package changes

import (
	"fmt"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/cache"
	"github.com/testdex/testdex/internal/lang"
)

// Graph is the impact graph of a listing: every project's edges (from a
// user to what it uses, lang.Graph), held reversed, so that a walk from a
// changed file reaches the test files that use it, each step keeping why.
type Graph struct {
	users map[string][]use // node -> the nodes that use it
	// narrowUsers are the edges Graphers gave for narrowed changes
	// (lang.Differ), reversed likewise.
	narrowUsers map[string][]use
	owners      map[string]string
	// suffixOwners are the owners of a folder's files by name suffix
	// (lang.Graph.Owners keys "dir/*_test.go"), longest suffix first.
	suffixOwners map[string][]suffixOwner
	// treeOwners own every file below a folder (keys "dir/**") whose
	// nearer folders have no owner.
	treeOwners map[string]string
	// testNodes are the nodes that are one test of a test file
	// (lang.Graph.Tests), by node.
	testNodes map[string]lang.TestNode
	projects  []*project
	rules     []rule // testdex.toml's [affected]
	// Problems are what the Graphers could not read (their files are
	// connected to everything in their project instead).
	Problems []testdex.Problem
	// scans keeps the Graphers' per-file scans between runs; nil when
	// the listing's cache is off.
	scans *cache.ScanStore
	// memo keeps the build checks and the files' base contents.
	memo brokenMemo
}

// suffixOwner owns the files of a folder whose names end with suffix.
type suffixOwner struct{ suffix, node string }

// use is one reversed edge: from uses the node, for why.
type use struct{ from, why string }

// project is one project's part of the graph.
type project struct {
	dir       string // root-relative
	ecosystem string
	files     []string // its test files, root-relative
	global    []string // root-relative globs
	// evidence is false for a project without a Grapher: any change in
	// it selects all its tests.
	evidence bool
	// grapher and input made its graph, for narrowing (lang.Differ);
	// mentions are the nodes its edges use (the files it may narrow).
	grapher  lang.Grapher
	input    *lang.GraphInput
	mentions map[string]bool
}

// Build builds the impact graph of the listing's projects. A Grapher's
// failure is a problem and makes its project evidence-free (everything
// selected on any change), never an error: safety before savings.
//
// With the listing's cache folder (ix.CacheDir), the Graphers' per-file
// scans are kept there between runs (cache.ScanStore): Build saves what
// the graph needed, and SaveCache what a later Select narrowed.
func Build(ix *index.Index) *Graph {
	g := &Graph{users: map[string][]use{}, owners: map[string]string{}}
	var scans lang.ScanCache
	if ix.CacheDir != "" {
		st, err := cache.OpenScan(ix.CacheDir, ix.Root)
		if err != nil {
			g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Message: err.Error()})
		}
		g.scans, scans = st, st
	}
	for _, pf := range ix.ProjectFiles() {
		p := &project{dir: pf.Dir, files: pf.Files}
		g.projects = append(g.projects, p)
		if pf.Project.Grapher == nil {
			continue
		}
		in := &lang.GraphInput{Project: pf.Project, Root: ix.Root, Files: pf.Files, ReadFile: os.ReadFile, Cache: scans, CacheDir: ix.CacheDir}
		lg, err := pf.Project.Grapher.Graph(in)
		if err != nil {
			g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: pf.Dir,
				Message: fmt.Sprintf("impact graph: %v; any change in this project selects all its tests", err)})
			continue
		}
		p.evidence, p.grapher, p.input = true, pf.Project.Grapher, in
		g.Problems = append(g.Problems, lg.Problems...)
		g.add(p, lg)
	}
	g.addRules(ix.Config().Affected)
	if err := g.SaveCache(); err != nil {
		g.Problems = append(g.Problems, testdex.Problem{Severity: testdex.SevWarning, Message: err.Error()})
	}
	return g
}

// SaveCache writes the scans stored since the last save (those of a
// Select's narrowing) to the cache folder; nothing without a cache or
// when nothing new was scanned. Its error is a warning: the next run
// scans again.
func (g *Graph) SaveCache() error {
	if g.scans == nil {
		return nil
	}
	return g.scans.Save()
}

// add merges one project's graph; its special nodes become the project's.
func (g *Graph) add(p *project, lg *lang.Graph) {
	if p.mentions == nil {
		p.mentions = map[string]bool{}
	}
	for _, e := range lg.Edges {
		from, to := g.node(p, e.From), g.node(p, e.To)
		g.users[to] = append(g.users[to], use{from: from, why: e.Why})
		p.mentions[e.To] = true
	}
	for key, node := range lg.Owners {
		if dir, ok := strings.CutSuffix(key, "/**"); ok {
			if g.treeOwners == nil {
				g.treeOwners = map[string]string{}
			}
			g.treeOwners[dir] = g.node(p, node)
			continue
		}
		if i := strings.LastIndex(key, "/*"); i >= 0 {
			g.addSuffixOwner(key[:i], suffixOwner{suffix: key[i+2:], node: g.node(p, node)})
			continue
		}
		g.owners[key] = g.node(p, node)
	}
	for _, glob := range lg.Global {
		p.global = append(p.global, rootRel(p.dir, glob))
	}
	g.addTests(lg.Tests)
}

// addTests keeps the nodes a Grapher names as one test of a file.
func (g *Graph) addTests(tests []lang.TestNode) {
	for _, t := range tests {
		if g.testNodes == nil {
			g.testNodes = map[string]lang.TestNode{}
		}
		g.testNodes[t.Node] = t
	}
}

// addSuffixOwner keeps a folder's suffix owners longest suffix first.
func (g *Graph) addSuffixOwner(dir string, o suffixOwner) {
	if g.suffixOwners == nil {
		g.suffixOwners = map[string][]suffixOwner{}
	}
	list := append(g.suffixOwners[dir], o)
	sort.SliceStable(list, func(i, j int) bool { return len(list[i].suffix) > len(list[j].suffix) })
	g.suffixOwners[dir] = list
}

// owner returns the node a change of file reaches through its folder: a
// suffix owner whose suffix the file name ends with, else the folder's,
// else the tree owner of the nearest folder above (a file deleted with
// its whole folder from a testdata tree still reaches the tree's node).
func (g *Graph) owner(file string) (string, bool) {
	dir, base := path.Dir(file), path.Base(file)
	for _, o := range g.suffixOwners[dir] {
		if strings.HasSuffix(base, o.suffix) {
			return o.node, true
		}
	}
	if n, ok := g.owners[dir]; ok {
		return n, true
	}
	for d := dir; len(g.treeOwners) > 0; d = path.Dir(d) {
		if n, ok := g.treeOwners[d]; ok {
			return n, true
		}
		if d == "." || d == "/" || d == ".." || strings.HasSuffix(d, "/..") {
			break
		}
	}
	return "", false
}

// node makes a Grapher's special nodes the project's own.
func (g *Graph) node(p *project, n string) string {
	switch n {
	case lang.AnyNode:
		return anyNode(p)
	case lang.UnresolvedNode:
		return unresolvedNode(p)
	}
	return n
}

func anyNode(p *project) string        { return lang.AnyNode + " " + p.dir }
func unresolvedNode(p *project) string { return lang.UnresolvedNode + " " + p.dir }

// rootRel joins a project folder and a project-relative path.
func rootRel(dir, rel string) string {
	if dir == "." || dir == "" {
		return rel
	}
	return path.Join(dir, rel)
}

// in reports whether a root-relative path lies in project p's folder.
func (p *project) in(file string) bool {
	return p.dir == "." || file == p.dir || strings.HasPrefix(file, p.dir+"/") || strings.HasPrefix(p.dir, "..")
}
