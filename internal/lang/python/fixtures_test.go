package python_test

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/testdex/testdex/index"
)

// fixtureParamsDir is a pytest project whose tests are parametrized by
// fixtures: declared in class bodies, inherited and overridden by
// subclasses, requested through other fixtures, overridden in a module
// (with and without requesting the conftest.py's), autouse, with scopes
// that reorder them, through indirect= parametrization, and with a scope= pytest only knows at run time.
var fixtureParamsDir = filepath.Join("testdata", "fixtureparams")

// fixtureParamsWant is what pytest 8.1.1 and 9.2.0 collect from
// fixtureParamsDir (`python -m pytest --collect-only -q`, sorted), except
// test_dynamic_scope's rows, which are one dynamic record: its fixtures'
// order depends on a scope callable.
var fixtureParamsWant = []string{
	"tests/test_chain.py::TestAuto::TestNested::test_inner[a-0]",
	"tests/test_chain.py::TestAuto::TestNested::test_inner[b-0]",
	"tests/test_chain.py::TestAuto::test_auto[a]",
	"tests/test_chain.py::TestAuto::test_auto[b]",
	"tests/test_chain.py::TestBase::test_made[JSONDecoder-None]",
	"tests/test_chain.py::TestBase::test_made[JSONDecoder-x]",
	"tests/test_chain.py::TestBase::test_made[factory1-None]",
	"tests/test_chain.py::TestBase::test_made[factory1-x]",
	"tests/test_chain.py::TestBase::test_plain",
	"tests/test_chain.py::TestOverride::test_made[pk-None]",
	"tests/test_chain.py::TestOverride::test_made[pk-x]",
	"tests/test_chain.py::TestOverride::test_plain",
	"tests/test_chain.py::TestPlainOverride::test_made[None]",
	"tests/test_chain.py::TestPlainOverride::test_made[x]",
	"tests/test_chain.py::TestPlainOverride::test_plain",
	"tests/test_chain.py::test_direct_no_closure[d]",
	"tests/test_chain.py::test_direct_wins[3.5-direct]",
	"tests/test_chain.py::test_direct_wins[None-direct]",
	"tests/test_chain.py::test_dynamic_scope[{fixtures}] (dynamic)",
	"tests/test_chain.py::test_indirect[True-i]",
	"tests/test_chain.py::test_override_plain",
	"tests/test_chain.py::test_override_super[c1]",
	"tests/test_chain.py::test_override_super[c2]",
	"tests/test_chain.py::test_scope_order[3.5-True]",
	"tests/test_chain.py::test_scope_order[None-True]",
	"tests/test_chain.py::test_via_conftest",
}

// TestFixtureParams checks the exact rows fixtures give, then, when Python
// is installed, that pytest reports every static row and nothing outside
// them or the dynamic record.
func TestFixtureParams(t *testing.T) {
	ix, err := index.Build(context.Background(), index.Options{Root: fixtureParamsDir})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range ix.Problems {
		t.Errorf("unexpected problem: %s", p)
	}
	parents := map[string]bool{}
	for _, r := range ix.Tests {
		parents[r.Parent] = true
	}
	var got []string
	for _, r := range ix.Tests {
		switch {
		case r.Dynamic:
			got = append(got, r.Name+" (dynamic)")
		case r.Kind != "suite" && !parents[r.ID]:
			got = append(got, r.Name)
		}
	}
	slices.Sort(got)
	if !slices.Equal(got, fixtureParamsWant) {
		t.Errorf("leaf records:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(fixtureParamsWant, "\n"))
	}
	compare(t, ix.Tests, runLister(t, fixtureParamsDir, []string{"pyproject.toml"}))
}
