package index

import (
	"sort"
	"strings"

	"github.com/testdex/testdex/internal/lang"
)

// ProjectFiles is one detected project with its test files, for the
// evidence of `testdex affected` (package changes).
type ProjectFiles struct {
	// Dir is the project folder relative to the root ("." for the root;
	// "../.." when it lies above).
	Dir     string
	Project *lang.Project
	// Files are the project's test files of every framework,
	// root-relative, sorted.
	Files []string
}

// ProjectFiles returns the projects of the listing with their test files,
// sorted by folder; a project whose frameworks share it (pytest and
// unittest) appears once.
func (ix *Index) ProjectFiles() []ProjectFiles {
	byProj := map[*lang.Project]*ProjectFiles{}
	var out []*ProjectFiles
	for _, g := range ix.groups {
		pf := byProj[g.proj]
		if pf == nil {
			pf = &ProjectFiles{Dir: displayRel(ix.Root, g.proj.Dir), Project: g.proj}
			byProj[g.proj] = pf
			out = append(out, pf)
		}
		for _, f := range ix.Files {
			if f.Project == pf.Dir && f.Framework == g.setup.Framework {
				pf.Files = append(pf.Files, f.Path)
			}
		}
	}
	res := make([]ProjectFiles, 0, len(out))
	for _, pf := range out {
		sort.Strings(pf.Files)
		res = append(res, *pf)
	}
	sort.Slice(res, func(i, j int) bool { return res[i].Dir < res[j].Dir })
	return res
}

// InnermostProject returns the project among projects (ProjectFiles's)
// whose folder is the nearest one holding rel, a root-relative path; nil
// when none holds it. Callers asking for many paths compute projects once.
func InnermostProject(projects []ProjectFiles, rel string) *lang.Project {
	var best *lang.Project
	depth := -1
	for _, pf := range projects {
		d := pf.Dir
		if d != "." && rel != d && !strings.HasPrefix(rel, d+"/") {
			continue
		}
		n := 0 // the longest folder holding the path is the innermost
		if d != "." {
			n = len(d) + 1
		}
		if n > depth {
			best, depth = pf.Project, n
		}
	}
	return best
}
