package index

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// Batch is what one framework runs in one project.
type Batch struct {
	// Name is "DIR FRAMEWORK", DIR root-relative.
	Name    string
	Dir     string // root-relative project folder
	Project *lang.Project
	Setup   *lang.Setup
	// Selection is handed to the framework's Runner.
	Selection lang.Selection
	// Expected are the listed records the selection covers (descendants
	// included): the runner should report each of them or a descendant. A
	// record it does not report is "unreported", never a failure.
	Expected []*testdex.Test
	// Outside are the symbolic links leaving the root (Index.Escapes)
	// under the selection's paths, project-relative: the framework must
	// not follow them (lang.LinkGuard).
	Outside []lang.Link

	paths []string // the selection's paths, root-relative
}

// Plan is a run's batches, in a stable order (by project folder, then
// framework).
type Plan struct {
	Batches []*Batch
	// Unrunnable are the selected records of frameworks testdex cannot run
	// (semtest specs).
	Unrunnable []testdex.Test
	// Unchanged are the records `run --changed` does not run, with the
	// reason (set by the caller; Plan leaves it empty).
	Unchanged       []testdex.Test
	UnchangedReason string
}

// Leaves counts the listed leaf tests the plan expects: no suites or
// parents with listed children, no dynamic records (their rows are known
// only at run time), the records testdex cannot run included.
func (p *Plan) Leaves() int {
	n := len(p.Unrunnable)
	for _, b := range p.Batches {
		parents := map[string]bool{}
		for _, t := range b.Expected {
			if !t.Dynamic {
				parents[t.Parent] = true
			}
		}
		for _, t := range b.Expected {
			if !t.Dynamic && !parents[t.ID] {
				n++
			}
		}
	}
	return n
}

// Plan turns a selection into batches: a path covering a project runs the
// project whole ("." to its runner), a path inside one is handed to its
// framework as a project-relative path, and an ID names its test (a
// dynamic record runs its parent). An ID under a selected path or under
// another selected ID is dropped: it runs anyway.
func (ix *Index) Plan(sel *Selection) *Plan {
	byID := make(map[string]*testdex.Test, len(ix.Tests))
	for i := range ix.Tests {
		byID[ix.Tests[i].ID] = &ix.Tests[i]
	}
	batches := map[*group]*Batch{}
	batchOf := func(g *group) *Batch {
		b := batches[g]
		if b == nil {
			dir := displayRel(ix.Root, g.proj.Dir)
			b = &Batch{Name: dir + " " + string(g.setup.Framework), Dir: dir, Project: g.proj, Setup: g.setup}
			batches[g] = b
		}
		return b
	}
	for _, g := range ix.groups {
		for _, p := range sel.Paths {
			if ps, ok := ix.pathSelection(g, p); ok {
				b := batchOf(g)
				b.Selection.Paths = append(b.Selection.Paths, ps)
				b.paths = append(b.paths, p)
			}
		}
	}
	ix.planTests(sel.Tests, byID, batchOf)
	plan := &Plan{}
	for _, b := range batches {
		b.Expected = ix.expected(b, byID)
		b.Outside = ix.outside(b)
		if b.Setup.Runner == nil {
			for _, t := range b.Expected {
				plan.Unrunnable = append(plan.Unrunnable, *t)
			}
			continue
		}
		plan.Batches = append(plan.Batches, b)
	}
	sort.Slice(plan.Batches, func(i, j int) bool { return plan.Batches[i].Name < plan.Batches[j].Name })
	sort.SliceStable(plan.Unrunnable, func(i, j int) bool { return plan.Unrunnable[i].ID < plan.Unrunnable[j].ID })
	return plan
}

// outside returns the links leaving the root (Index.Escapes) that the
// batch's framework could reach: inside its project and under one of the
// batch's paths. A batch of IDs alone has none (each ID is checked apart).
func (ix *Index) outside(b *Batch) []lang.Link {
	var out []lang.Link
	for _, e := range ix.Escapes {
		inPaths := false
		for _, p := range b.paths {
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
func (ix *Index) planTests(tests []testdex.Test, byID map[string]*testdex.Test, batchOf func(*group) *Batch) {
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
		if coveredBy(b.paths, t.File) {
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
func (ix *Index) expected(b *Batch, byID map[string]*testdex.Test) []*testdex.Test {
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
		if coveredBy(b.paths, t.File) || named[t.ID] || ancestorChosen(t, byID, named) {
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
