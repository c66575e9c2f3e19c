package index

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// Plan turns a selection into batches: a path covering a project runs the
// project whole ("." to its runner), a path inside one is handed to its
// framework as a project-relative path, and an ID names its test (a
// dynamic record runs its parent). An ID under a selected path or under
// another selected ID is dropped: it runs anyway.
func (ix *Index) Plan(sel *Selection) *plan.Plan {
	byID := make(map[string]*testdex.Test, len(ix.Tests))
	for i := range ix.Tests {
		byID[ix.Tests[i].ID] = &ix.Tests[i]
	}
	batches := map[*group]*plan.Batch{}
	batchOf := func(g *group) *plan.Batch {
		b := batches[g]
		if b == nil {
			dir := displayRel(ix.Root, g.proj.Dir)
			b = &plan.Batch{Name: dir + " " + string(g.setup.Framework), Dir: dir, Framework: g.setup.Framework,
				Settings: g.setup.Settings, Project: g.proj, Setup: g.setup}
			batches[g] = b
		}
		return b
	}
	for _, g := range ix.groups {
		for _, p := range sel.Paths {
			if ps, ok := ix.pathSelection(g, p); ok {
				b := batchOf(g)
				b.Selection.Paths = append(b.Selection.Paths, ps)
				b.Paths = append(b.Paths, p)
			}
		}
	}
	ix.planTests(sel.Tests, byID, batchOf)
	p := &plan.Plan{Version: plan.Version}
	for g, b := range batches {
		b.Selection.Within = ix.within(g, &b.Selection, sel.Within)
		b.Expected = ix.expected(b, byID)
		b.Outside = ix.outside(b)
		if b.Setup.Runner == nil {
			for _, t := range b.Expected {
				p.Unrunnable = append(p.Unrunnable, *t)
			}
			continue
		}
		p.Batches = append(p.Batches, b)
	}
	sort.Slice(p.Batches, func(i, j int) bool { return p.Batches[i].Name < p.Batches[j].Name })
	sort.SliceStable(p.Unrunnable, func(i, j int) bool { return p.Unrunnable[i].ID < p.Unrunnable[j].ID })
	p.Listing = ix.planListing(p.Batches)
	return p
}

// Finder finds a project folder's framework among the listing's, for
// plan.Bind: the live project and setup a plan read from a document runs
// through.
func (ix *Index) Finder() plan.Finder {
	return func(dir string, fw testdex.Framework) (*lang.Project, *lang.Setup, bool) {
		for _, g := range ix.groups {
			if g.setup.Framework == fw && displayRel(ix.Root, g.proj.Dir) == dir {
				return g.proj, g.setup, true
			}
		}
		return nil, nil, false
	}
}

// Listing is the listing as the ID rules read it (plan.NewNamer).
func (ix *Index) Listing() plan.Listing {
	l := plan.Listing{Root: ix.Root, Tests: ix.Tests, Files: make([]lang.ListedFile, len(ix.Files)), Projects: make([]lang.ListedProject, len(ix.Projects))}
	for i, f := range ix.Files {
		l.Files[i] = lang.ListedFile{Path: f.Path, Framework: f.Framework, Project: f.Project}
	}
	for i, p := range ix.Projects {
		l.Projects[i] = lang.ListedProject{Dir: p.Dir, Name: p.Name}
	}
	return l
}

// NewNamer indexes the listing for naming tests by ID and run results.
func (ix *Index) NewNamer() *plan.Namer { return plan.NewNamer(ix.Listing()) }

// planListing is the listing a plan of batches names its results with:
// the records and files of the batches' frameworks (a framework's naming
// rules read no other's), every project.
func (ix *Index) planListing(batches []*plan.Batch) plan.Listing {
	l := ix.Listing()
	fws := map[testdex.Framework]bool{}
	for _, b := range batches {
		fws[b.Framework] = true
	}
	tests := l.Tests[:0:0]
	for _, t := range l.Tests {
		if fws[t.Framework] {
			tests = append(tests, t)
		}
	}
	files := l.Files[:0:0]
	for _, f := range l.Files {
		if fws[f.Framework] {
			files = append(files, f)
		}
	}
	l.Tests, l.Files = tests, files
	return l
}

// outside returns the links leaving the root (Index.Escapes) that the
// batch's framework could reach: inside its project and under one of the
// batch's paths. A batch of IDs alone has none (each ID is checked apart).
func (ix *Index) outside(b *plan.Batch) []lang.Link {
	var out []lang.Link
	for _, e := range ix.Escapes {
		inPaths := false
		for _, p := range b.Paths {
			inPaths = inPaths || under(e.Path, p)
		}
		rel, err := filepath.Rel(b.Project.Dir, filepath.Join(ix.Root, filepath.FromSlash(e.Path)))
		if !inPaths || err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
			continue
		}
		out = append(out, lang.Link{Path: filepath.ToSlash(rel), Dir: e.Dir})
	}
	return out
}

// within is group g's part of the root-relative paths of the run a
// selection narrows (lang.Selection.Within), without their records; nil
// where it names no folder of the group (a file named is run as named
// anyway) or sel is the whole project already.
func (ix *Index) within(g *group, sel *lang.Selection, paths []string) []lang.PathSelection {
	if sel.Whole() {
		return nil
	}
	var out []lang.PathSelection
	dir := false
	for _, p := range paths {
		if ps, ok := ix.pathSelection(g, p); ok {
			out = append(out, lang.PathSelection{Path: ps.Path, Dir: ps.Dir})
			dir = dir || ps.Dir
		}
	}
	if !dir {
		return nil
	}
	return out
}

// pathSelection is the part of a root-relative path p in group g's
// project: the whole project when p covers it (unless the project lies
// above the root: then the root's folder), else p relative to the project
// when the group has test files under p.
func (ix *Index) pathSelection(g *group, p string) (lang.PathSelection, bool) {
	dir := displayRel(ix.Root, g.proj.Dir)
	if !ix.groupHas(g, dir, p) {
		return lang.PathSelection{}, false
	}
	rel := "."
	switch {
	case strings.HasPrefix(dir, ".."): // the project holds the root: never run beyond it
		if r, err := filepath.Rel(g.proj.Dir, ix.Root); err == nil {
			rel = path.Join(filepath.ToSlash(r), p)
		}
	case !under(dir, p):
		rel = lang.ProjectRel(dir, p)
	}
	ps := lang.PathSelection{Path: rel, Dir: rel == "." || !ix.isFile(p)}
	for i := range ix.Tests {
		t := &ix.Tests[i]
		if t.Parent == "" && t.Project == dir && t.Framework == g.setup.Framework && under(t.File, p) {
			ps.Tests = append(ps.Tests, t)
		}
	}
	return ps, true
}

// groupHas reports whether group g (project folder dir) has a test file
// under the root-relative path p.
func (ix *Index) groupHas(g *group, dir, p string) bool {
	for _, f := range ix.Files {
		if f.Project == dir && f.Framework == g.setup.Framework && under(f.Path, p) {
			return true
		}
	}
	return false
}

func (ix *Index) isFile(p string) bool {
	for _, f := range ix.Files {
		if f.Path == p {
			return true
		}
	}
	return false
}

// planTests adds the records named by ID to their batches, each once,
// dropping those under a selected path or a selected ancestor.
func (ix *Index) planTests(tests []testdex.Test, byID map[string]*testdex.Test, batchOf func(*group) *plan.Batch) {
	chosen := map[string]bool{}
	for _, t := range tests {
		chosen[runID(t)] = true
	}
	seen := map[string]bool{}
	for i := range tests {
		t := &tests[i]
		if t.Dynamic && t.Parent != "" {
			if t = byID[t.Parent]; t == nil {
				continue
			}
		}
		if listed := byID[t.ID]; listed != nil {
			t = listed
		}
		g := ix.groupOf(t)
		if g == nil || seen[t.ID] || ancestorChosen(t, byID, chosen) {
			continue
		}
		seen[t.ID] = true
		b := batchOf(g)
		if coveredBy(b.Paths, t.File) {
			continue
		}
		b.Selection.Tests = append(b.Selection.Tests, t)
	}
}

// runID is the ID of what running t runs: a dynamic record runs its parent.
func runID(t testdex.Test) string {
	if t.Dynamic && t.Parent != "" {
		return t.Parent
	}
	return t.ID
}

// coveredBy reports whether a root-relative file lies under one of paths.
func coveredBy(paths []string, file string) bool {
	for _, p := range paths {
		if under(file, p) {
			return true
		}
	}
	return false
}

func ancestorChosen(t *testdex.Test, byID map[string]*testdex.Test, chosen map[string]bool) bool {
	for p := byID[t.Parent]; p != nil; p = byID[p.Parent] {
		if chosen[p.ID] {
			return true
		}
	}
	return false
}

// groupOf finds the group of a record by its project folder and framework.
func (ix *Index) groupOf(t *testdex.Test) *group {
	for _, g := range ix.groups {
		if displayRel(ix.Root, g.proj.Dir) == t.Project && g.setup.Framework == t.Framework {
			return g
		}
	}
	return nil
}

// expected lists the listed records a batch covers: those under its paths
// and the named records with their descendants.
func (ix *Index) expected(b *plan.Batch, byID map[string]*testdex.Test) []*testdex.Test {
	named := map[string]bool{}
	for _, t := range b.Selection.Tests {
		named[t.ID] = true
	}
	var out []*testdex.Test
	for i := range ix.Tests {
		t := &ix.Tests[i]
		if t.Project != b.Dir || t.Framework != b.Setup.Framework {
			continue
		}
		if coveredBy(b.Paths, t.File) || named[t.ID] || ancestorChosen(t, byID, named) {
			out = append(out, t)
		}
	}
	for _, t := range b.Selection.Tests {
		if byID[t.ID] == nil { // made by the ID rules
			out = append(out, t)
		}
	}
	return out
}
