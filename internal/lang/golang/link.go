package golang

import (
	"os"
	"path"
	"path/filepath"
	"slices"

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

// pkgFile is one file of a package with its Facts.
type pkgFile struct {
	f     *lang.Linked
	facts facts
}

// followHelpers extracts again, with their package's other files within
// reach, the files whose tests call a helper another file declares.
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
		groups[k] = append(groups[k], pkgFile{f, decodeFacts(f.Result.Facts)})
	}
	var probs []testdex.Problem
	for _, k := range order {
		probs = append(probs, l.followPackage(p, groups[k])...)
	}
	return probs
}

// followPackage does followHelpers for one package.
func (l linker) followPackage(p *lang.Project, pkg []pkgFile) []testdex.Problem {
	runners := packageRunners(pkg)
	if len(runners) == 0 {
		return nil
	}
	var ex *pkgExtractor
	var probs []testdex.Problem
	for _, pf := range pkg {
		if !needsPackage(pf.facts, runners) {
			continue
		}
		if ex == nil {
			ex = newPkgExtractor(l.extractor(), siblingsOf(p, pkg, runners), runners)
		}
		abs := filepath.Join(p.Dir, filepath.FromSlash(pf.f.Rel))
		res, err := load(p, abs, pf.f.Rel, ex)
		if err != nil {
			probs = append(probs, testdex.Problem{Severity: testdex.SevWarning, Path: pf.f.RootRel,
				Message: "helpers in other test files of the package not followed: " + err.Error()})
			continue
		}
		pf.f.Result.Tests, pf.f.Result.Problems = res.Tests, res.Problems
	}
	return probs
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
			Hash: pf.facts.Hash, Names: names})
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
