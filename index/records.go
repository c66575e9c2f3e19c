package index

import (
	"path"
	"path/filepath"
	"sort"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lang/markdown"
)

// assemble turns the extractors' per-file results into records: IDs,
// parents, scopes and projects. It runs on one goroutine, in candidate
// order, so the output order is the candidates' path order.
func assemble(ix *Index, ps *projects, results [][]fileResult) {
	n := 0
	for _, rs := range results {
		for _, r := range rs {
			n += len(r.res.Tests)
		}
	}
	ix.Tests = make([]testdex.Test, 0, n)
	ids := make(map[string]bool, n)
	type place struct{ scope, project string }
	places := map[string]place{} // (folder, framework) -> scope and project
	for _, rs := range results {
		for _, r := range rs {
			for _, p := range r.res.Problems {
				if p.Path == "" {
					p.Path = r.cand.rel
				}
				ix.Problems = append(ix.Problems, p)
			}
			if len(r.res.Tests) == 0 {
				continue
			}
			pk := path.Dir(r.cand.rel) + "\x00" + string(r.plugin.fw)
			pl, ok := places[pk]
			if !ok || r.plugin.fw == testdex.Semtest {
				pl.scope, pl.project = describe(ix, ps, r)
				places[pk] = pl
			}
			scope, proj := pl.scope, pl.project
			for _, t := range r.res.Tests {
				rec := record(r.cand.rel, r.plugin.fw, scope, proj, t)
				if ids[rec.ID] {
					ix.Problems = append(ix.Problems, testdex.Problem{Severity: testdex.SevWarning, Path: rec.File, Line: rec.Line,
						Message: "duplicate test " + rec.Name + " (only the first is listed)"})
					continue
				}
				ids[rec.ID] = true
				ix.Tests = append(ix.Tests, rec)
			}
		}
	}
	ix.Problems = append(ix.Problems, ps.probs...)
	sort.SliceStable(ix.Problems, func(i, j int) bool {
		a, b := ix.Problems[i], ix.Problems[j]
		if a.Path != b.Path {
			return a.Path < b.Path
		}
		return a.Line < b.Line
	})
	ix.Projects = ps.all()
}

// describe finds the scope and project of one file's records.
func describe(ix *Index, ps *projects, r fileResult) (scope, project string) {
	dir := path.Dir(r.cand.rel)
	switch r.plugin.fw {
	case testdex.Go:
		mod := ps.nearest(dir, "go")
		if mod == nil || mod.Name == "" {
			if mod == nil {
				ps.probs = appendOnce(ps.probs, testdex.Problem{Severity: testdex.SevWarning, Path: dir,
					Message: "no go.mod in this folder or above it; go test needs a module, so the scope is the folder"})
			}
			return dir, "."
		}
		return goImportPath(mod, filepath.Join(ix.Root, filepath.FromSlash(dir))), mod.Dir
	case testdex.Semtest:
		return markdown.Group(ix.Root, filepath.Join(ix.Root, filepath.FromSlash(r.cand.rel))), nearestAny(ps, dir)
	}
	return "", nearestAny(ps, dir)
}

// nearestAny is the folder of the nearest manifest of any kind, "." when
// there is none.
func nearestAny(ps *projects, dir string) string {
	best := ""
	for _, kind := range []string{"go", "node", "python", "cargo", "maven", "gradle"} {
		if p := ps.nearest(dir, kind); p != nil && len(p.Dir) > len(best) && !isAbove(p.Dir) {
			best = p.Dir
		}
	}
	if best == "" {
		return "."
	}
	return best
}

func isAbove(dir string) bool { return dir == ".." || len(dir) > 2 && dir[:3] == "../" }

func appendOnce(ps []testdex.Problem, p testdex.Problem) []testdex.Problem {
	for _, q := range ps {
		if q == p {
			return ps
		}
	}
	return append(ps, p)
}

func record(file string, fw testdex.Framework, scope, project string, t lang.Test) testdex.Test {
	name := t.Name
	if fw == testdex.Semtest {
		name = ""
	}
	rec := testdex.Test{
		ID:        testdex.MakeID(file, name),
		Framework: fw,
		Kind:      t.Kind,
		Scope:     scope,
		Name:      t.Name,
		Dynamic:   t.Dynamic,
		File:      file,
		Line:      t.Line,
		Tags:      t.Tags,
		Skip:      t.Skip,
		Project:   project,
		Run:       t.Run,
		Spec:      t.Spec,
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
