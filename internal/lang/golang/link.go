package golang

import (
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"

	"golang.org/x/sync/errgroup"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
)

// linker completes the records of a project's files: helpers that other
// test files of the package declare (pkgctx.go), every record's Scope
// (its package's import path), and the seed corpus of fuzz targets.
type linker struct {
	ex *Extractor // the project's; nil means Default
}

func (l linker) Link(p *lang.Project, files []*lang.Linked) []testdex.Problem {
	probs := l.followHelpers(p, files)
	warned := map[string]bool{}
	for _, f := range files {
		dir := path.Dir(f.Rel)
		scope := importPath(p.Name, dir)
		if p.Name == "" {
			scope = path.Dir(f.RootRel)
			if d := path.Dir(f.RootRel); p.Manifest == "" && !warned[d] {
				warned[d] = true
				probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: d,
					Message: "no go.mod in this folder or above it; go test needs a module, so the scope is the folder"})
			}
		}
		addCorpus(p.Dir, f)
		for i := range f.Result.Tests {
			f.Result.Tests[i].Scope = scope
		}
	}
	return probs
}

// pkgFile is one file of a package with its Facts; extra when it is not
// among the files linked but was read for them (addFolder).
type pkgFile struct {
	f     *lang.Linked
	facts facts
	extra bool
}

// followHelpers extracts again, with their package's other files within
// reach, the files whose tests call a helper another file declares. The
// extractions run in parallel: parsing is CPU-bound, so as many as
// GOMAXPROCS at once.
func (l linker) followHelpers(p *lang.Project, files []*lang.Linked) []testdex.Problem {
	type key struct{ dir, pkg string }
	var order []key
	groups := map[key][]pkgFile{}
	for _, f := range files {
		if len(f.Result.Facts) == 0 {
			continue
		}
		k := key{path.Dir(f.Rel), f.Result.Package}
		if groups[k] == nil {
			order = append(order, k)
		}
		groups[k] = append(groups[k], pkgFile{f: f, facts: decodeFacts(f.Result.Facts)})
	}
	var jobs []*helperJob
	for _, k := range order {
		pkg := groups[k]
		if slices.ContainsFunc(pkg, func(pf pkgFile) bool { return pf.f.Alone }) {
			pkg = l.addFolder(p, pkg, k.dir, k.pkg)
		}
		jobs = append(jobs, l.packageJobs(p, pkg)...)
	}
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, j := range jobs {
		g.Go(func() error {
			j.res, j.err = load(p, j.abs, j.f.Rel, j.ex)
			return nil
		})
	}
	g.Wait()
	var probs []testdex.Problem
	for _, j := range jobs {
		if j.err != nil {
			probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: j.f.RootRel,
				Message: "helpers in other test files of the package not followed: " + j.err.Error()})
			continue
		}
		j.f.Result.Tests, j.f.Result.Problems = j.res.Tests, j.res.Problems
	}
	return probs
}

// addFolder adds to the files of a package that a listing of single
// files gave the package's other test files in the folder, read through
// the core's cache: their helpers are followed as in a listing of the
// folder.
func (l linker) addFolder(p *lang.Project, pkg []pkgFile, dir, name string) []pkgFile {
	entries, err := os.ReadDir(filepath.Join(p.Dir, filepath.FromSlash(dir)))
	if err != nil {
		return pkg
	}
	for _, e := range entries {
		rel := path.Join(dir, e.Name())
		if !e.Type().IsRegular() || !isTestFile(rel) || slices.ContainsFunc(pkg, func(pf pkgFile) bool { return pf.f.Rel == rel }) {
			continue
		}
		res, err := load(p, filepath.Join(p.Dir, filepath.FromSlash(rel)), rel, l.extractor())
		if err != nil || res.Package != name || len(res.Facts) == 0 {
			continue
		}
		rootRel := path.Join(path.Dir(pkg[0].f.RootRel), e.Name())
		pkg = append(pkg, pkgFile{f: &lang.Linked{Rel: rel, RootRel: rootRel, Result: &res}, facts: decodeFacts(res.Facts), extra: true})
	}
	return pkg
}

// helperJob is one file to extract again, and the result.
type helperJob struct {
	f   *lang.Linked
	abs string
	ex  *pkgExtractor
	res lang.Result
	err error
}

// packageJobs lists the files of one package that call helpers of its
// other files, with the extractor that sees them.
func (l linker) packageJobs(p *lang.Project, pkg []pkgFile) []*helperJob {
	runners := packageRunners(pkg)
	if len(runners) == 0 {
		return nil
	}
	var ex *pkgExtractor
	var jobs []*helperJob
	for _, pf := range pkg {
		if pf.extra || !needsPackage(pf.facts, runners) {
			continue
		}
		if ex == nil {
			ex = newPkgExtractor(l.extractor(), siblingsOf(p, pkg, runners), runners)
		}
		jobs = append(jobs, &helperJob{f: pf.f, abs: filepath.Join(p.Dir, filepath.FromSlash(pf.f.Rel)), ex: ex})
	}
	return jobs
}

func (l linker) extractor() *Extractor {
	if l.ex == nil {
		return Default
	}
	return l.ex
}

// packageRunners is the set of the package's helpers: every file's
// Runners, and the Relays that pass their T to one of them, until no
// more do.
func packageRunners(pkg []pkgFile) map[string]bool {
	runners := map[string]bool{}
	for _, pf := range pkg {
		for _, n := range pf.facts.Runners {
			runners[n] = true
		}
	}
	for changed := len(runners) > 0; changed; {
		changed = false
		for _, pf := range pkg {
			for _, r := range pf.facts.Relays {
				if !runners[r.Name] && slices.ContainsFunc(r.Via, func(n string) bool { return runners[n] }) {
					runners[r.Name] = true
					changed = true
				}
			}
		}
	}
	return runners
}

// needsPackage reports whether a file calls, from a test or a relay, a
// helper of another file.
func needsPackage(f facts, runners map[string]bool) bool {
	if slices.ContainsFunc(f.Calls, func(n string) bool { return runners[n] }) {
		return true
	}
	for _, r := range f.Relays {
		if slices.ContainsFunc(r.Via, func(n string) bool { return runners[n] }) {
			return true
		}
	}
	return false
}

// siblingsOf lists the package's files that declare helpers (runners),
// in path order.
func siblingsOf(p *lang.Project, pkg []pkgFile, runners map[string]bool) []sibling {
	var out []sibling
	for _, pf := range pkg {
		names := slices.Clone(pf.facts.Runners)
		for _, r := range pf.facts.Relays {
			if runners[r.Name] {
				names = append(names, r.Name)
			}
		}
		if len(names) == 0 {
			continue
		}
		out = append(out, sibling{Rel: pf.f.Rel, Abs: filepath.Join(p.Dir, filepath.FromSlash(pf.f.Rel)),
			Hash: pf.facts.Hash, Names: names, Decls: pf.facts.Decls})
	}
	slices.SortFunc(out, func(a, b sibling) int {
		if a.Rel < b.Rel {
			return -1
		}
		if a.Rel > b.Rel {
			return 1
		}
		return 0
	})
	return out
}

// load extracts a file with ex, through the core's cache when it offers
// one.
func load(p *lang.Project, abs, rel string, ex lang.Extractor) (lang.Result, error) {
	if p.Load != nil {
		return p.Load(abs, ex, nil)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		return lang.Result{}, err
	}
	return ex.Extract(&lang.File{Rel: rel, Abs: abs, Data: data, Framework: testdex.Go}), nil
}
