package run

import (
	"context"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/proc"
)

func TestNamerMapsUnknownNamesUnderTheirAncestor(t *testing.T) {
	ix := &index.Index{Tests: []testdex.Test{
		{ID: "a_test.go::TestEach", Framework: testdex.Go, Scope: "m", Name: "TestEach"},
		{ID: "a_test.go::TestEach/{sku}", Framework: testdex.Go, Scope: "m", Name: "TestEach/{sku}", Dynamic: true},
		{ID: "t.py::test_x", Framework: testdex.Pytest, Name: "tests/t.py::test_x"},
		{ID: "C.java::C.withInfo(TestInfo)", Framework: testdex.JUnit, Scope: "a.C", Name: "withInfo(TestInfo)"},
		{ID: "C.java::C.over(int)", Framework: testdex.JUnit, Scope: "a.C", Name: "over(int)"},
		{ID: "C.java::C.over(String)", Framework: testdex.JUnit, Scope: "a.C", Name: "over(String)"},
	}}
	n := newNamer(ix)
	for _, tc := range []struct {
		fw                testdex.Framework
		scope, name, want string
	}{
		{testdex.Go, "m", "TestEach", "a_test.go::TestEach"},
		{testdex.Go, "m", "TestEach/A-1", "a_test.go::TestEach/A-1"},
		{testdex.Go, "m", "TestEach/A-1/deeper", "a_test.go::TestEach/A-1/deeper"},
		{testdex.Pytest, "", "tests/t.py::test_x[3]", "t.py::test_x[3]"},
		{testdex.Go, "other", "TestNew", "other::TestNew"},
		{testdex.JUnit, "a.C", "withInfo()", "C.java::C.withInfo(TestInfo)"},
		{testdex.JUnit, "a.C", "withInfo()[2]", "C.java::C.withInfo(TestInfo)[2]"},
		{testdex.JUnit, "a.C", "over()", "a.C::over()"}, // ambiguous: not guessed
	} {
		if got := n.id("", tc.fw, tc.scope, tc.name); got != tc.want {
			t.Errorf("id(%s %q %q) = %q, want %q", tc.fw, tc.scope, tc.name, got, tc.want)
		}
	}
}

func TestSummaryKeepsLeafFailures(t *testing.T) {
	s := newSummary(0)
	for _, e := range []testdex.Event{
		{Action: testdex.ActionFail, ID: "f::TestT/bad", Message: "row failed"},
		{Action: testdex.ActionFail, ID: "f::TestT"}, // only through its row
		{Action: testdex.ActionFail, ID: "f::TestU", Message: "own failure"},
		{Action: testdex.ActionFail, ID: "f::TestU/x", Message: "and a child"},
		{Action: testdex.ActionFail, ID: "f::TestFlaky", Message: "first try"},
		{Action: testdex.ActionPass, ID: "f::TestFlaky"},
		{Action: testdex.ActionFail, Batch: ". go"},
	} {
		s.add(e)
	}
	s.finish(context.Background())
	var ids []string
	for _, f := range s.Failures {
		ids = append(ids, f.ID)
	}
	want := []string{"f::TestT/bad", "f::TestU", "f::TestU/x"}
	if len(ids) != len(want) || ids[0] != want[0] || ids[1] != want[1] || ids[2] != want[2] {
		t.Errorf("failures = %q, want %q", ids, want)
	}
	if s.Failed != 4 || s.Passed != 1 || s.BatchesFailed != 1 || s.OK() {
		t.Errorf("counts: %+v", s)
	}
}

func TestOutputIsCapped(t *testing.T) {
	var got []testdex.Event
	st := &batchState{b: &index.Batch{Name: ". go", Setup: &lang.Setup{Framework: testdex.Go}}, o: Options{Now: time.Now}, out: &batchOutput{}}
	for i := 0; i < 10; i++ {
		if st.keepOutput(testdex.Event{Action: testdex.ActionOutput, Output: "0123456789"}, 35) {
			got = append(got, testdex.Event{})
		}
	}
	if len(got) != 3 || len(st.out.events) != 1 || st.out.events[0].Output != proc.Truncated {
		t.Errorf("kept %d events, marker events %+v", len(got), st.out.events)
	}
}
