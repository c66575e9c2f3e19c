package python

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// prefetchProject is a project whose test classes inherit across helper
// modules two imports deep, with a name imported from a module that does
// not exist and one from the standard library.
var prefetchProject = map[string]string{
	"helpers/__init__.py": "",
	"helpers/base.py":     "import unittest\nfrom helpers.mixins import Mixin\n\nclass Base(Mixin, unittest.TestCase):\n    def test_base(self):\n        pass\n",
	"helpers/mixins.py":   "class Mixin:\n    def test_mixin(self):\n        pass\n",
	"helpers/unused.py":   "class Unused:\n    pass\n",
	"test_a.py":           "from helpers.base import Base\nfrom nowhere import Gone\nfrom os import path\n\nclass TestA(Base):\n    def test_a(self):\n        pass\n",
}

// linkPrefetch links the project's test module with or without reading
// ahead, counting the reads of helper modules by path.
func linkPrefetch(t *testing.T, dir string, ahead bool) ([]lang.Test, map[string]int, []string) {
	t.Helper()
	var mu sync.Mutex
	reads := map[string]int{} // Load's calls, by path, whether the file is there or not
	p := &lang.Project{Dir: dir, Load: func(abs string, ex lang.Extractor, s lang.Settings) (lang.Result, error) {
		rel, _ := filepath.Rel(dir, abs)
		mu.Lock()
		reads[filepath.ToSlash(rel)]++
		mu.Unlock()
		data, err := os.ReadFile(abs)
		if err != nil {
			return lang.Result{}, err
		}
		return ex.Extract(&lang.File{Rel: filepath.ToSlash(rel), Data: data}), nil
	}}
	data, err := os.ReadFile(filepath.Join(dir, "test_a.py"))
	if err != nil {
		t.Fatal(err)
	}
	res := Extractor{}.Extract(&lang.File{Rel: "test_a.py", Data: data})
	m := &modFile{rel: "test_a.py", facts: decodeFacts(res.Facts), res: &res}
	cl := newClasses(p, ".", false, []*modFile{m})
	var early []string
	if ahead {
		cl.prefetch([]*modFile{m})
		for rel, f := range cl.fetched {
			if f.err == nil {
				early = append(early, rel)
			}
		}
		slices.Sort(early)
	}
	cl.settle(m)
	l := &linker{}
	return l.pytestRecords(cl, m), reads, early
}

// TestPrefetchReadsWhatLinkLoads checks that reading ahead reads each
// helper module the Linker then uses, base of a base included, before
// the Linker asks, each once, no module nobody names, looks for a missing
// one once, and changes no record.
func TestPrefetchReadsWhatLinkLoads(t *testing.T) {
	dir := t.TempDir()
	for rel, src := range prefetchProject {
		if err := os.MkdirAll(filepath.Join(dir, filepath.Dir(rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	plain, plainReads, _ := linkPrefetch(t, dir, false)
	ahead, aheadReads, early := linkPrefetch(t, dir, true)
	// os is the standard library's, outside the project: not a file here.
	if want := []string{"helpers/base.py", "helpers/mixins.py"}; !slices.Equal(early, want) {
		t.Errorf("read ahead %q, want %q", early, want)
	}
	var names []string
	for _, r := range ahead {
		names = append(names, r.Name)
	}
	for _, want := range []string{"TestA::test_a", "TestA::test_base", "TestA::test_mixin"} {
		if !slices.Contains(names, want) {
			t.Errorf("records %q lack %s", names, want)
		}
	}
	if !slices.EqualFunc(plain, ahead, func(a, b lang.Test) bool { return a.Name == b.Name && a.Line == b.Line && a.Kind == b.Kind }) {
		t.Errorf("records differ with prefetch:\nplain %+v\nahead %+v", plain, ahead)
	}
	for _, rel := range []string{"helpers/base.py", "helpers/mixins.py"} {
		if plainReads[rel] != 1 || aheadReads[rel] != 1 {
			t.Errorf("%s read %d times plain, %d times with prefetch; want 1 and 1", rel, plainReads[rel], aheadReads[rel])
		}
	}
	if aheadReads["helpers/unused.py"] != 0 {
		t.Errorf("prefetch read a module nothing names: %v", aheadReads)
	}
	// A module that is not there is looked for once, by prefetch, not
	// again by the Linker's walk.
	if plainReads["nowhere.py"] != 1 || aheadReads["nowhere.py"] != 0 {
		t.Errorf("nowhere.py looked for %d times plain, %d times through Load with prefetch; want 1 and 0", plainReads["nowhere.py"], aheadReads["nowhere.py"])
	}
}
