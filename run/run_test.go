package run

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/plan"
)

// TestSummaryCountsAndFailures: counts are the final results (a test
// reported again under the same occurrence, as a retry, counts once), a parent failed only through a row is left to the row
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

// TestSummaryKeepsOccurrences: tests reported under one ID (a shared full
// title) are results of their own, whichever of them fails and in
// whatever order: each is counted, the failing one is in Failures with its
// own file and line, and Outcome says the ID failed.
func TestSummaryKeepsOccurrences(t *testing.T) {
	for failing := range 3 {
		s := NewSummary()
		for occ := range 3 {
			e := testdex.Event{Action: testdex.ActionPass, ID: "t.js::same", Occurrence: occ, File: "t.js", Line: 10 * (occ + 1)}
			if occ == failing {
				e.Action, e.Message = testdex.ActionFail, "broken"
			}
			s.Event(e)
		}
		s.Finish()
		if s.Passed != 2 || s.Failed != 1 || s.OK() || len(s.Results()) != 3 {
			t.Errorf("copy %d fails: %d passed, %d failed, %d results", failing, s.Passed, s.Failed, len(s.Results()))
		}
		if len(s.Failures) != 1 || s.Failures[0].Line != 10*(failing+1) || s.Failures[0].Occurrence != failing {
			t.Errorf("copy %d fails: failures %+v", failing, s.Failures)
		}
		if e, ok := s.Outcome("t.js::same"); !ok || e.Action != testdex.ActionFail {
			t.Errorf("copy %d fails: outcome %v %v", failing, e.Action, ok)
		}
	}
}

// TestOutputIsCapped: past the head (half the limit) output is held, its
// last bytes kept within the other half, and reported after a marker of
// the bytes dropped when the test fails, before its failure; once the
// tail's half is spent, later output is a marker at the batch's end.
func TestOutputIsCapped(t *testing.T) {
	var got []string
	add := func(e testdex.Event) { got = append(got, e.ID+" "+string(e.Action)+" "+e.Output) }
	st := &batchState{b: &plan.Batch{Name: ". go", Setup: &lang.Setup{Framework: testdex.Go}}, o: Options{Now: time.Now},
		out: &batchOutput{}, outCap: newOutputCap(40), started: map[string]int{}, done: map[string]int{}}
	emit := func(e testdex.Event) {
		st.mu.Lock()
		defer st.mu.Unlock()
		if e.Action == testdex.ActionOutput && !st.outCap.take(e, add) {
			return
		}
		if flushes(e) {
			st.flushOutput()
		}
		st.report(e, add)
	}
	for i := range 10 {
		emit(testdex.Event{Action: testdex.ActionOutput, ID: "a", Output: fmt.Sprintf("line %d...\n", i)})
	}
	emit(testdex.Event{Action: testdex.ActionOutput, ID: "a", Output: "the reason\n"})
	emit(testdex.Event{Action: testdex.ActionFail, ID: "a"})
	emit(testdex.Event{Action: testdex.ActionOutput, ID: "b", Output: "more output"})
	emit(testdex.Event{Action: testdex.ActionPass}) // the batch's end
	want := []string{
		"a output line 0...\n", "a output line 1...\n",
		"a output " + fmt.Sprintf(TruncatedFormat, 71), "a output ine 9...\n", "a output the reason\n",
		"a fail ",
		"b output " + fmt.Sprintf(TruncatedFormat, 11), " pass ",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("reported:\n%q\nwant:\n%q", got, want)
	}
}
