package watch

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

func selectionIndex() *index.Index {
	tests := []testdex.Test{
		{ID: "calc/calc_test.go::TestAdd", Name: "TestAdd", File: "calc/calc_test.go", Framework: testdex.Go},
		{ID: "calc/calc_test.go::TestMul", Name: "TestMul", File: "calc/calc_test.go", Framework: testdex.Go},
		{ID: "py/test_shapes.py::test_area", Name: "test_area", File: "py/test_shapes.py", Framework: testdex.Pytest},
		{ID: "py/test_shapes.py::test_square", Name: "test_square", File: "py/test_shapes.py", Framework: testdex.Pytest},
		{ID: "js/m.test.js::suite", Name: "suite", File: "js/m.test.js", Framework: testdex.NodeTest},
		{ID: "js/m.test.js::suite > square", Name: "square", Parent: "js/m.test.js::suite", File: "js/m.test.js", Framework: testdex.NodeTest},
		{ID: "js/m.test.js::suite > cube", Name: "cube", Parent: "js/m.test.js::suite", File: "js/m.test.js", Framework: testdex.NodeTest},
	}
	return &index.Index{Root: "/r", Tests: tests}
}

func TestFilters(t *testing.T) {
	ix := selectionIndex()
	all := []item{{Path: "."}}
	for _, tc := range []struct {
		name    string
		f       filters
		items   []item
		failing map[string]string
		want    []item
	}{
		{"no filter keeps the items, paths first", filters{},
			[]item{{ID: "py/test_shapes.py::test_area"}, {Path: "calc/calc_test.go"}},
			nil, []item{{Path: "calc/calc_test.go"}, {ID: "py/test_shapes.py::test_area"}}},
		{"an ID of a file run whole is dropped", filters{},
			[]item{{ID: "calc/calc_test.go::TestAdd"}, {Path: "calc/calc_test.go"}, {Path: "calc/calc_test.go"}},
			nil, []item{{Path: "calc/calc_test.go"}}},
		{"a failure no longer listed runs by its file", filters{},
			[]item{{ID: "calc/calc_test.go::TestAdd/case_1"}, {ID: "gone_test.go::TestX"}},
			map[string]string{"calc/calc_test.go::TestAdd/case_1": "calc/calc_test.go"},
			[]item{{Path: "calc/calc_test.go"}}},
		{"a path that holds no listed test is dropped", filters{},
			[]item{{Path: "gone_test.go"}, {Path: "docs"}, {Path: "py"}}, nil, []item{{Path: "py"}}},
		{"the path filter expands a folder to its matching files", filters{Path: regexp.MustCompile(`^py/`)},
			all, nil, []item{{Path: "py/test_shapes.py"}}},
		{"the path filter drops other files and IDs", filters{Path: regexp.MustCompile(`calc`)},
			[]item{{Path: "py/test_shapes.py"}, {ID: "calc/calc_test.go::TestMul"}}, nil,
			[]item{{ID: "calc/calc_test.go::TestMul"}}},
		{"the name filter picks the outermost matching tests", filters{Name: regexp.MustCompile(`square`)},
			all, nil, []item{{ID: "js/m.test.js::suite > square"}, {ID: "py/test_shapes.py::test_square"}}},
		{"a matching parent stands for its children", filters{Name: regexp.MustCompile(`suite|cube`)},
			all, nil, []item{{ID: "js/m.test.js::suite"}}},
		{"the name filter stays inside the items", filters{Name: regexp.MustCompile(`^Test`)},
			[]item{{ID: "calc/calc_test.go::TestMul"}, {Path: "py/test_shapes.py"}}, nil,
			[]item{{ID: "calc/calc_test.go::TestMul"}}},
		{"scope keeps the tests under the PATHs", filters{Scope: []string{"py"}},
			[]item{{Path: "calc/calc_test.go"}, {Path: "py/test_shapes.py"}}, nil,
			[]item{{Path: "py/test_shapes.py"}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, _ := tc.f.apply(ix, tc.items, tc.failing)
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestFiltersString(t *testing.T) {
	f := filters{Name: regexp.MustCompile("sq"), Path: regexp.MustCompile("^py/"), Scope: []string{"py"}}
	if got, want := f.String(), " · name /sq/ · path /^py// · under py"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := (filters{}).String(); got != "" {
		t.Errorf("no filter shows %q", got)
	}
}

func TestFiltersGone(t *testing.T) {
	ix := selectionIndex()
	failing := map[string]string{"deleted_test.go::TestX": "deleted_test.go", "calc/calc_test.go::TestAdd": "calc/calc_test.go"}
	items := []item{{ID: "deleted_test.go::TestX"}, {ID: "calc/calc_test.go::TestAdd"}}
	got, gone := filters{}.apply(ix, items, failing)
	if !reflect.DeepEqual(got, []item{{ID: "calc/calc_test.go::TestAdd"}}) || !reflect.DeepEqual(gone, []string{"deleted_test.go::TestX"}) {
		t.Errorf("got %v, gone %v", got, gone)
	}
}
