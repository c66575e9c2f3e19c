package run

import (
	"reflect"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/proc"
)

// TestSummaryCountsAndFailures: counts are the final results (a retried
// test counts once), a parent failed only through a row is left to the row
// in Failures but counted, suites count only with a failure of their own,
// unreported tests are neither passed nor failed, and a batch error fails
// the run.
func TestSummaryCountsAndFailures(t *testing.T) {
	s := NewSummary()
	for _, e := range []testdex.Event{
		{Action: testdex.ActionFail, ID: "f::TestT/bad", Parent: "f::TestT", Message: "row failed"},
		{Action: testdex.ActionFail, ID: "f::TestT"}, // only through its row
		{Action: testdex.ActionFail, ID: "f::TestU", Message: "own failure"},
		{Action: testdex.ActionFail, ID: "f::TestU/x", Parent: "f::TestU", Message: "and a child"},
		{Action: testdex.ActionFail, ID: "f::TestV/x", Parent: "f::TestV", Message: "a runtime row"},
		{Action: testdex.ActionFail, ID: "f::TestVv"}, // a prefix of a failed ID, not its parent: kept
		{Action: testdex.ActionFail, ID: "f::TestFlaky", Message: "first try"},
		{Action: testdex.ActionPass, ID: "f::TestFlaky"},
		{Action: testdex.ActionPass, ID: "j::suite", Kind: testdex.KindSuite},
		{Action: testdex.ActionFail, ID: "j::hooked", Kind: testdex.KindSuite, Message: "before all hook"},
		{Action: testdex.ActionUnreported, ID: "f::TestGone", Message: "the runner did not report it"},
	} {
		s.Event(e)
	}
	s.Finish()
	var ids []string
	for _, f := range s.Failures {
		ids = append(ids, f.ID)
	}
	want := []string{"f::TestT/bad", "f::TestU", "f::TestU/x", "f::TestV/x", "f::TestVv", "j::hooked"}
	if !reflect.DeepEqual(ids, want) {
		t.Errorf("failures = %q, want %q", ids, want)
	}
	if s.Failed != 7 || s.Passed != 1 || s.Unreported != 1 || s.OK() || ExitCode(s) != ExitFailed {
		t.Errorf("counts: %+v", s)
	}
	ok := NewSummary()
	ok.Event(testdex.Event{Action: testdex.ActionPass, ID: "a"})
	ok.Event(testdex.Event{Action: testdex.ActionError, Batch: ". go", Cause: testdex.CauseTimeout, Message: "timed out after 1s"})
	if ok.OK() || !ok.TimedOut || ExitCode(ok) != ExitTimeout || len(ok.Errors) != 1 {
		t.Errorf("timeout: %+v", ok)
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
