package python

import (
	"reflect"
	"testing"

	"github.com/testdex/testdex/internal/lang"
)

// TestPytestParseListParams: a row's parameters may hold "::" and "["
// (pytest keeps them as written); they are not path separators, so no
// bogus suite or test appears. Recorded from pytest 9 --collect-only -q on
// a parametrize over ["a::b", "c[d]"] and a pytest.param id "q::r".
func TestPytestParseListParams(t *testing.T) {
	out := "test_b.py::test_p[a::b]\ntest_b.py::test_p[c[d]]\ntest_b.py::TestC::test_q[q::r]\n\n3 tests collected in 0.01s\n"
	got, err := pytestLister{}.ParseList(&lang.Project{}, []byte(out), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, l := range got {
		names = append(names, string(l.Kind)+" "+l.Name)
	}
	want := []string{"test test_b.py::test_p", "subtest test_b.py::test_p[a::b]", "subtest test_b.py::test_p[c[d]]",
		"suite test_b.py::TestC", "test test_b.py::TestC::test_q", "subtest test_b.py::TestC::test_q[q::r]"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("listed:\n%q\nwant:\n%q", names, want)
	}
}
