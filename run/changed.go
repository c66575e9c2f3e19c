package run

import (
	"errors"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/changes"
	"github.com/testdex/testdex/index"
)

// changedRun is one `run --changed`: the test files that run, those that
// do not, and the fingerprints to save for the files that pass.
type changedRun struct {
	root, cacheDir string
	sel            *index.Selection
	unchanged      []testdex.Test
	fingerprints   map[string]string // of the files that run
	passing        map[string]string // the state as loaded
}

// newChangedRun splits the selection's test files into the unchanged ones
// (their fingerprint equals the one saved at their last passing run) and
// the ones to run, handed over as paths.
func newChangedRun(ix *index.Index, sel *index.Selection, cacheDir string) (*changedRun, error) {
	if len(sel.Tests) > 0 {
		return nil, errors.New("--changed takes paths, not test IDs")
	}
	if cacheDir == "" {
		return nil, errors.New("--changed needs the cache folder to keep its state (TESTDEX_CACHE_DIR is off)")
	}
	passing, err := LoadPassing(cacheDir, ix.Root)
	if err != nil {
		return nil, err
	}
	fps := changes.Build(ix).Fingerprints(ix.Root)
	ch := &changedRun{root: ix.Root, cacheDir: cacheDir, sel: &index.Selection{}, fingerprints: map[string]string{}, passing: passing}
	same := map[string]bool{}
	for _, f := range ix.Files {
		if !underAny(f.Path, sel.Paths) {
			continue
		}
		if fp := fps[f.Path]; fp != "" && passing[f.Path] == fp {
			same[f.Path] = true
			continue
		}
		ch.sel.Paths = append(ch.sel.Paths, f.Path)
		ch.fingerprints[f.Path] = fps[f.Path]
	}
	parents := map[string]bool{}
	for _, t := range ix.Tests {
		if !t.Dynamic {
			parents[t.Parent] = true
		}
	}
	for _, t := range ix.Tests {
		if same[t.File] && !t.Dynamic && !parents[t.ID] {
			ch.unchanged = append(ch.unchanged, t)
		}
	}
	return ch, nil
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
// pass or a skip; a file with a failure, an unreported test or no result,
// or any batch error, forgets its fingerprint (it runs next time).
func (ch *changedRun) save(sum *Summary) error {
	ok := map[string]bool{}
	bad := map[string]bool{}
	for _, e := range sum.Results() {
		file, _ := testdex.SplitID(e.ID)
		switch e.Action {
		case testdex.ActionPass, testdex.ActionSkip:
			ok[file] = true
		default:
			bad[file] = true
		}
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
