package index

import (
	"testing"

	"github.com/testdex/testdex"
)

// TestDynamicCover: a top-level unittest dynamic record (a load_tests
// adding DocTestSuite('pkg.mod')) covers the runtime names under its
// literal prefix, and the module's own docstring test named pkg.mod, but
// not a sibling module whose name merely starts the same.
func TestDynamicCover(t *testing.T) {
	ix := &Index{Tests: []testdex.Test{
		{ID: "tests/test_mod.py::{load_tests:pkg.mod}", Framework: testdex.Unittest, Dynamic: true, Name: "pkg.mod.{load_tests:pkg.mod}"},
	}}
	c := ix.dynamicIndex()
	for name, want := range map[string]bool{"pkg.mod.func": true, "pkg.mod.Class.method": true, "pkg.mod": true, "pkg.modern": false, "pkg": false} {
		if got := c.covers(testdex.Test{Framework: testdex.Unittest, Name: name}); got != want {
			t.Errorf("covers %q: %v, want %v", name, got, want)
		}
	}
}
