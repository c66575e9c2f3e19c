package workspace

import (
	"errors"
	"github.com/testdex/testdex/run"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/coverage"
	"github.com/testdex/testdex/index"
)

// changedRun is one `run --changed`: the test files and tests that run,
// those that do not, and the fingerprints to save for the files that
// pass.
type changedRun struct {
	root, cacheDir string
	sel            *index.Selection
	unchanged      []testdex.Test
	fingerprints   map[string]string // of the files that run
	passing        map[string]string // the state as loaded
	manifests      map[string]changes.Manifest
	byID           map[string]bool // the test files run by ID, some of their tests unchanged
}

// newChangedRun splits the selection's test files into the unchanged ones
// (their fingerprint equals the one saved at their last passing run) and
// the ones to run. Of a file whose fingerprint moved, the tests that
// their recorded coverage vouches for (vouched) are unchanged too, and
// the others run by ID; a file none of whose tests is vouched for runs
// whole, by path.
func newChangedRun(ix *index.Index, sel *index.Selection, cacheDir string, warn func(string)) (*changedRun, error) {
	if len(sel.Tests) > 0 {
		return nil, errors.New("--changed takes paths, not test IDs")
	}
	if cacheDir == "" {
		return nil, errors.New("--changed needs the cache folder to keep its state (TESTDEX_CACHE_DIR is off)")
	}
	passing := LoadPassing(cacheDir, ix.Root, warn)
	g := changes.Build(ix)
	mans := g.Manifests(ix.Root)
	ch := &changedRun{root: ix.Root, cacheDir: cacheDir, sel: &index.Selection{}, fingerprints: map[string]string{},
		passing: passing, manifests: mans, byID: map[string]bool{}}
	same, moved := map[string]bool{}, map[string]bool{}
	for _, f := range ix.Files {
		if !underAny(f.Path, sel.Paths) {
			continue
		}
		fp := ""
		if m := mans[f.Path]; m != nil {
			fp = m.Fingerprint()
		}
		if fp != "" && passing[f.Path] == fp {
			same[f.Path] = true
			continue
		}
		moved[f.Path] = true
		ch.fingerprints[f.Path] = fp
	}
	vouched := vouched(ix, g, cacheDir, moved, mans)
	ch.split(ix, same, moved, vouched)
	return ch, nil
}

// vouched returns the tests of the moved files that their recorded
// coverage vouches for (changes.Graph.Unaffected); none without a
// coverage index or baselines, or when the index cannot be read.
func vouched(ix *index.Index, g *changes.Graph, cacheDir string, moved map[string]bool, mans map[string]changes.Manifest) map[string]bool {
	base := LoadBaselines(cacheDir, ix.Root)
	for f := range base {
		if !moved[f] {
			delete(base, f)
		}
	}
	if len(base) == 0 {
		return nil
	}
	cov, err := coverage.Open(coverage.Path(cacheDir, ix.Root), coverage.Options{ReadOnly: true})
	if err != nil {
		return nil // no index, or a damaged one: the fingerprints alone decide
	}
	defer cov.Close()
	out, err := g.Unaffected(ix, base, mans, cov)
	if err != nil {
		return nil
	}
	return out
}

// split fills the selection and the unchanged tests: a moved file's
// tests that are not vouched for run, by ID (the topmost of them) when
// some of its tests are, else the file runs by path.
func (ch *changedRun) split(ix *index.Index, same, moved, vouched map[string]bool) {
	parents := map[string]bool{}
	byID := map[string]testdex.Test{}
	for _, t := range ix.Tests {
		byID[t.ID] = t
		if !t.Dynamic {
			parents[t.Parent] = true
		}
	}
	runs := func(t testdex.Test) bool { // t or an ancestor is not vouched for
		for ; ; t = byID[t.Parent] {
			if !vouched[t.ID] {
				return true
			}
			if _, ok := byID[t.Parent]; !ok {
				return false
			}
		}
	}
	some := map[string]bool{} // moved files with a vouched leaf
	for _, t := range ix.Tests {
		if moved[t.File] && !t.Dynamic && !parents[t.ID] && !runs(t) {
			some[t.File] = true
		}
	}
	for _, f := range ix.Files {
		if moved[f.Path] && !some[f.Path] {
			ch.sel.Paths = append(ch.sel.Paths, f.Path)
		}
	}
	for _, t := range ix.Tests {
		switch {
		case !some[t.File]:
			if same[t.File] && !t.Dynamic && !parents[t.ID] {
				ch.unchanged = append(ch.unchanged, t)
			}
		case !runs(t):
			if !t.Dynamic && !parents[t.ID] {
				ch.unchanged = append(ch.unchanged, t)
			}
		case !vouched[t.ID] && topmost(t, byID, runs):
			ch.sel.Tests = append(ch.sel.Tests, t) // the topmost that runs: its descendants run with it
			ch.byID[t.File] = true
		}
	}
}

// topmost reports whether no ancestor of t runs.
func topmost(t testdex.Test, byID map[string]testdex.Test, runs func(testdex.Test) bool) bool {
	p, ok := byID[t.Parent]
	return !ok || !runs(p)
}

func underAny(file string, paths []string) bool {
	for _, p := range paths {
		if p == "." || file == p || strings.HasPrefix(file, p+"/") {
			return true
		}
	}
	return false
}

// save records the fingerprints of the run files whose every result is a
// pass, a skip or (the tests their coverage vouched for) unchanged; a
// file with a failure, an unreported test, an ID nothing answered or no
// result, or any batch error, forgets its fingerprint (it runs next
// time).
func (ch *changedRun) save(sum *run.Summary) error {
	ok := map[string]bool{}
	bad := map[string]bool{}
	for _, e := range sum.Results() {
		file, _ := testdex.SplitID(e.ID)
		switch e.Action {
		case testdex.ActionPass, testdex.ActionSkip, testdex.ActionUnchanged:
			ok[file] = true
		default:
			bad[file] = true
		}
	}
	for _, id := range append(sum.Unmatched[:len(sum.Unmatched):len(sum.Unmatched)], sum.Lost...) {
		file, _ := testdex.SplitID(id)
		bad[file] = true
	}
	for f, fp := range ch.fingerprints {
		if fp != "" && ok[f] && !bad[f] && len(sum.Errors) == 0 {
			ch.passing[f] = fp
		} else {
			delete(ch.passing, f)
		}
	}
	return SavePassing(ch.cacheDir, ch.root, ch.passing)
}
