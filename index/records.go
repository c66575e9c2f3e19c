package index

import (
	"fmt"
	"path"
	"slices"
	"sort"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// link runs each framework's Linker over its project's files (whose
// tests extractOne copied: the originals are the cache's).
func link(r *resolver, results []fileResult) []testdex.Problem {
	type group struct {
		proj  *lang.Project
		setup *lang.Setup
		files []*lang.Linked
	}
	var order []*group
	groups := map[*lang.Setup]*group{}
	for i := range results {
		fr := &results[i]
		if fr.cand.setup.Linker == nil {
			continue
		}
		g := groups[fr.cand.setup]
		if g == nil {
			g = &group{proj: fr.cand.proj, setup: fr.cand.setup}
			groups[fr.cand.setup] = g
			order = append(order, g)
		}
		g.files = append(g.files, &lang.Linked{Rel: fr.cand.rel2(), RootRel: fr.cand.rel, Result: &fr.res,
			Alone: !r.seenDirs[path.Dir(fr.cand.rel)]})
	}
	var probs []testdex.Problem
	for _, g := range order {
		for _, p := range g.setup.Linker.Link(g.proj, g.files) {
			p.Path = r.display(p.Path)
			probs = append(probs, p)
		}
	}
	return probs
}

// rel2 is the candidate's path relative to its project folder.
func (c *candidate) rel2() string { return c.assignment.rel }

// assemble turns the per-file results into records: IDs, parents and
// projects. It runs on one goroutine, in candidate order, so the output
// order is the candidates' path order.
func assemble(ix *Index, r *resolver, results []fileResult) {
	n := 0
	for _, fr := range results {
		n += len(fr.res.Tests)
	}
	ix.Tests = make([]testdex.Test, 0, n)
	ids := make(map[string]bool, n)
	groups := map[*lang.Setup]*group{}
	for _, fr := range results {
		g := groups[fr.cand.setup]
		if g == nil {
			g = &group{proj: fr.cand.proj, setup: fr.cand.setup}
			groups[fr.cand.setup] = g
			ix.groups = append(ix.groups, g)
		}
		g.files = append(g.files, fr.cand.rel2())
		for _, p := range fr.res.Problems {
			if p.Path == "" {
				p.Path = fr.cand.rel
			}
			ix.Problems = append(ix.Problems, p)
		}
		project := r.display(fr.cand.proj.Dir)
		if project == "" {
			project = "."
		}
		f := File{Path: fr.cand.rel, Framework: fr.cand.setup.Framework, Project: project}
		if fr.fresh != nil || fr.hit {
			f.Hash = fmt.Sprintf("%016x", fr.hash)
		}
		ix.Files = append(ix.Files, f)
		whole := wholeKeys(fr.res.Tests)
		for _, t := range fr.res.Tests {
			rec := record(fr.cand.rel, fr.cand.setup.Framework, project, t)
			if whole[t.Parent] {
				rec.Parent = rec.File // a child of the record that is its file (a spec's scenario)
			}
			if ids[rec.ID] && !(fr.cand.setup.Duplicates && !rec.Dynamic && rec.Kind != testdex.KindSuite) {
				ix.Problems = append(ix.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: rec.File, Line: rec.Line,
					Message: "duplicate test " + rec.Name + " (only the first is listed)"})
				continue
			}
			ids[rec.ID] = true
			ix.Tests = append(ix.Tests, rec)
		}
	}
	sort.SliceStable(ix.Problems, func(i, j int) bool {
		a, b := ix.Problems[i], ix.Problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	ix.Problems = slices.CompactFunc(ix.Problems, func(a, b testdex.Problem) bool { return a == b })
	ix.Projects = r.list()
}

// wholeKeys returns the keys of the records that are their file
// (lang.Test.WholeFile), whose ID is the file alone: a child naming one
// as its Parent is a child of that ID.
func wholeKeys(tests []lang.Test) map[string]bool {
	var out map[string]bool
	for i := range tests {
		if tests[i].WholeFile {
			if out == nil {
				out = map[string]bool{}
			}
			out[tests[i].Key()] = true
		}
	}
	return out
}

func record(file string, fw testdex.Framework, project string, t lang.Test) testdex.Test {
	id := testdex.MakeID(file, t.Key())
	if t.WholeFile {
		id = file
	}
	rec := testdex.Test{
		ID:        id,
		Framework: fw,
		Kind:      t.Kind,
		Scope:     t.Scope,
		Name:      t.Name,
		Dynamic:   t.Dynamic,
		File:      file,
		Line:      t.Line,
		Tags:      t.Tags,
		Skip:      t.Skip,
		Only:      t.Only,
		Variant:   t.Variant,
		Project:   project,
		Run:       t.Run,
		Spec:      t.Spec,
		Meta:      t.Meta,
	}
	if t.Parent != "" {
		rec.Parent = testdex.MakeID(file, t.Parent)
	}
	if rec.Tags == nil {
		rec.Tags = []string{}
	}
	return rec
}

// NoTests returns a *NoTestsError when the index holds no tests, else nil.
func (ix *Index) NoTests() error {
	if len(ix.Tests) > 0 {
		return nil
	}
	return &NoTestsError{Dir: ix.Searched, Files: ix.Stats.Candidates}
}
