package mutbench

import (
	"strings"
	"testing"

	"github.com/testdex/testdex/internal/fidelity"
)

// listed is a Go package with two test files and a pytest file, as
// `testdex list --json` names them.
var listed = []record{
	{ID: "a_test.go::TestA", Framework: "go", Scope: "p", Name: "TestA", File: "a_test.go"},
	{ID: "a_test.go::TestA/row", Framework: "go", Scope: "p", Name: "TestA/row", Parent: "a_test.go::TestA", File: "a_test.go"},
	{ID: "a_test.go::TestA/other", Framework: "go", Scope: "p", Name: "TestA/other", Parent: "a_test.go::TestA", File: "a_test.go"},
	{ID: "b_test.go::TestB", Framework: "go", Scope: "p", Name: "TestB", File: "b_test.go"},
	{ID: "t/test_x.py::test_f", Framework: "pytest", Name: "t/test_x.py::test_f", File: "t/test_x.py"},
}

func TestSelectionLevels(t *testing.T) {
	l := newListing(listed)
	goKey := func(name string) fidelity.Key { return fidelity.Key{Framework: "go", Scope: "p", Name: name} }
	py := func(name string) fidelity.Key { return fidelity.Key{Framework: "pytest", Name: name} }
	for _, tc := range []struct {
		name           string
		selected       []string // IDs
		key            fidelity.Key
		wantFile, want bool
	}{
		{"the test itself", []string{"b_test.go::TestB"}, goKey("TestB"), true, true},
		{"another file", []string{"b_test.go::TestB"}, goKey("TestA"), false, false},
		{"a row named at run time, its parent selected", []string{"a_test.go::TestA"}, goKey("TestA/dynamic"), true, true},
		{"a parent, one of its rows selected (running the row runs it)", []string{"a_test.go::TestA/row"}, goKey("TestA"), true, true},
		{"a sibling row selected: same file, not the same test", []string{"a_test.go::TestA/other"}, goKey("TestA/row"), true, false},
		{"a runtime row whose sibling is selected", []string{"a_test.go::TestA/other"}, goKey("TestA/dynamic"), true, false},
		{"a package failure alone (build, vet, init, TestMain) shows in any run of the package", []string{"a_test.go::TestA"}, goKey(""), true, true},
		{"a package failure, none of its tests selected", []string{"t/test_x.py::test_f"}, goKey(""), false, false},
		{"a pytest row named at run time", []string{"t/test_x.py::test_f"}, py("t/test_x.py::test_f[1-2]"), true, true},
		{"a pytest collection error names the file", []string{"t/test_x.py::test_f"}, py("t/test_x.py"), true, true},
		{"nothing selected", nil, py("t/test_x.py::test_f"), false, false},
		{"a runtime row selected by its own ID (covering's answer)", []string{"t/test_x.py::test_f[1-2]"}, py("t/test_x.py::test_f[1-2]"), true, true},
		{"another runtime row of the same test", []string{"t/test_x.py::test_f[3-4]"}, py("t/test_x.py::test_f[1-2]"), true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var recs []record
			for _, id := range tc.selected {
				rec, ok := l.byID[id]
				if !ok { // a row the listing does not hold, as covering names it
					file, _, _ := strings.Cut(id, "::")
					parent, _, _ := strings.Cut(id, "[")
					rec = record{ID: id, File: file, Parent: parent}
				}
				recs = append(recs, rec)
			}
			s := newSelection(recs, l)
			if got := s.hasFile(l, tc.key); got != tc.wantFile {
				t.Errorf("file level: got %v, want %v", got, tc.wantFile)
			}
			if got := s.hasTest(l, tc.key); got != tc.want {
				t.Errorf("test level: got %v, want %v", got, tc.want)
			}
		})
	}
}

func TestNewlyFailing(t *testing.T) {
	base := fidelity.Results{
		{Framework: "go", Scope: "p", Name: "TestFlaky"}: fidelity.Fail,
		{Framework: "go", Scope: "p", Name: "TestA"}:     fidelity.Pass,
	}
	res := fidelity.Results{
		{Framework: "go", Scope: "p", Name: "TestFlaky"}: fidelity.Fail, // failed before the mutant too
		{Framework: "go", Scope: "p", Name: "TestA"}:     fidelity.Fail,
		{Framework: "go", Scope: "p", Name: ""}:          fidelity.Fail, // the package, beside TestA
		{Framework: "go", Scope: "q", Name: ""}:          fidelity.Fail, // a build error, alone
	}
	got := newlyFailing(base, res)
	if len(got) != 2 || got[0].Scope != "p" || got[0].Name != "TestA" || got[1].Scope != "q" {
		t.Errorf("newly failing: %v", got)
	}
}

func TestOrderIsSeededAndInterleaved(t *testing.T) {
	var sites []Site
	for i := range 10 {
		sites = append(sites, Site{Off: i, Op: "const"}, Site{Off: 100 + i, Op: "cmp"})
	}
	a, b := order(sites, 1, "p"), order(sites, 1, "p")
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("the same seed gave two orders: %v and %v", a, b)
		}
	}
	if a[0].Op != "cmp" || a[1].Op != "const" || a[2].Op != "cmp" {
		t.Errorf("classes not taken in turn: %v", a[:3])
	}
	if c := order(sites, 2, "p"); c[0] == a[0] && c[2] == a[2] && c[4] == a[4] {
		t.Errorf("another seed gave the same order")
	}
}

// TestNewlyFailingCancelled: tests node:test cancelled before they ran
// count only when no test that ran failed.
func TestNewlyFailingCancelled(t *testing.T) {
	hung := fidelity.Key{Framework: "node", Scope: "t.js", Name: "hangs"}
	after := fidelity.Key{Framework: "node", Scope: "t.js", Name: "after"}
	base := fidelity.Results{hung: fidelity.Pass, after: fidelity.Pass}
	got := newlyFailing(base, fidelity.Results{hung: fidelity.Fail, after: cancelled})
	if len(got) != 1 || got[0] != hung {
		t.Errorf("a hung test and one cancelled after it: %v, want only the hung one", got)
	}
	got = newlyFailing(base, fidelity.Results{hung: cancelled, after: cancelled})
	if len(got) != 2 {
		t.Errorf("only cancelled tests: %v, want both", got)
	}
}
