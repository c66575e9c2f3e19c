package python

import (
	"path/filepath"
	"sort"
	"strings"
)

// moduleFileNode owns a module folder's .py files: a node no edge uses,
// so that the folder's tree owner (its data) does not take them; each
// module's change reaches its own node.
const moduleFileNode = "python:module"

// data links modules to the data files beside them: a test reads its
// fixtures from its folder or a subfolder (open(Path(__file__).parent /
// "data" / name)), a package its resources. Each folder F holding a
// module of the graph gets a node, "python:data F/", which owns every
// file below F (a deleted one, a whole deleted data folder too) but F's
// .py files and what a folder closer to it owns (another module folder).
// The modules of F use it, and each test file uses those of the folders
// above it up to the project folder too. The project folder and the
// rootdir get none: their README, docs/ and LICENSE are no test's data.
func (b *impactBuild) data(tests []string) {
	modDirs := map[string]bool{}
	for f := range b.facts {
		modDirs[filepath.Dir(f)] = true
	}
	for _, t := range tests {
		modDirs[filepath.Dir(t)] = true
	}
	nodes := map[string]string{}
	for d := range modDirs {
		if b.isTop(d) {
			continue
		}
		rel := b.node(d)
		nodes[d] = "python:data " + rel + "/"
		if b.out.Owners == nil {
			b.out.Owners = map[string]string{}
		}
		b.out.Owners[rel+"/**"] = nodes[d]
		b.out.Owners[rel+"/*.py"] = moduleFileNode
	}
	files := make([]string, 0, len(b.facts))
	for f := range b.facts {
		files = append(files, f)
	}
	sort.Strings(files)
	for _, f := range files {
		if n, ok := nodes[filepath.Dir(f)]; ok {
			b.nodeEdge(b.node(f), n, "data beside it")
		}
	}
	for _, t := range tests {
		for d := filepath.Dir(filepath.Dir(t)); !b.isTop(d) && d != filepath.Dir(d); d = filepath.Dir(d) {
			if n, ok := nodes[d]; ok {
				b.nodeEdge(b.node(t), n, "test data above it")
			}
		}
	}
}

// isTop reports whether d is the project folder, the rootdir or above
// either: folders whose other files are not test data.
func (b *impactBuild) isTop(d string) bool {
	tops := []string{b.in.Project.Dir}
	if b.g.cfg != nil {
		tops = append(tops, b.g.cfg.Rootdir)
	}
	for _, top := range tops {
		if r, err := filepath.Rel(d, top); err != nil || r == "." || !strings.HasPrefix(r, "..") {
			return true
		}
	}
	return false
}
