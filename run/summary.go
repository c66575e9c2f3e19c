package run

import (
	"sort"
	"time"

	"github.com/testdex/testdex"
)

// Summary is a run's outcome, computed from its event stream alone (it is
// a Handler): a saved `testdex run --json` stream replayed into a fresh
// Summary gives the same counts.
//
// Counts are of tests as the runners count them: every test a runner
// reported a final result for, listed or not, and not the suites and
// parametrized parents it does not report (a suite that failed with a
// message of its own, as a failing hook, counts as a failure). A Go test
// with subtests counts once for itself and once per subtest, as go test
// reports each (gotestsum counts the same way).
type Summary struct {
	// Passed, Failed and Skipped count tests by their final result;
	// Unreported counts listed tests the runner never reported (and those
	// testdex cannot run): neither passed, failed nor skipped.
	Passed, Failed, Skipped, Unreported int
	// Unchanged counts the tests `run --changed` did not run because they
	// and their dependencies are unchanged since their last passing run.
	Unchanged int
	// Flaky counts the tests that failed and then passed when rerun
	// (testdex.ActionFlaky); Flakes lists them in the order they ended.
	Flaky  int
	Flakes []Failure
	// Quarantine names the tests whose failures do not fail the run (set
	// by the caller before Finish: the root's quarantine list);
	// Quarantined are the failures Finish set apart for it: they ran and
	// failed, and are said, but OK does not count them.
	Quarantine  map[string]bool
	Quarantined []Failure
	// Failures are the failed tests in the order they failed: what
	// `testdex failures` shows and `testdex run --failed` reruns.
	Failures []Failure
	// Errors are batches whose runner failed without per-test results (a
	// build error, a missing toolchain, a crash, the timeout).
	Errors []BatchError
	// TimedOut is true when the run hit its timeout.
	TimedOut bool
	// Leaked lists processes left behind by a runner, which were killed.
	Leaked []LeakedProcess
	// Missing lists the toolchains a batch could not start, in the
	// words of the error ("go not found in PATH (...)").
	Missing []string
	// Unmatched are IDs named by the run that the listing does not hold
	// and that no runner reported, nor any test under them: they match no
	// test (set by Run, not by the events).
	Unmatched []string
	// Lost are IDs named by the run that the listing holds but no runner
	// reported, nor any test under them: the ID is right, its result is
	// missing (set by Run).
	Lost  []string
	Start time.Time
	End   time.Time
	// Covered is the number of tests whose coverage `run --coverage`
	// recorded (set by Run).
	Covered int
	// Recorded are the root-relative test files whose tests' coverage
	// was recorded (when Covered is not 0), at RecordedAt (the time the
	// coverage records carry: the run's start).
	Recorded   []string
	RecordedAt time.Time
	// Inner sums what the tests report of their own checks
	// (testdex.Event.Inner) over their final results, errors flattened in
	// the order the tests ended: a suite of skill-test modules' passed
	// and failed checks. Nil when no test counted any (set by Finish).
	Inner *testdex.Inner

	result map[resultKey]testdex.Event // final event per test ID and occurrence
	order  []resultKey                 // the results in the order they ended
}

// resultKey names one result: a test's ID and which of the runner's
// reports under that ID it is (testdex.Event.Occurrence). Results are
// never merged across occurrences: two tests sharing a full name are two
// results, each counted, and a failure of either fails the run.
type resultKey struct {
	id  string
	occ int
}

// Failure is one failed test.
type Failure struct {
	ID        string            `json:"id"`
	Framework testdex.Framework `json:"framework"`
	// Occurrence is the failed result's testdex.Event.Occurrence: which
	// of the tests reported under one ID failed (0 for the first).
	Occurrence int    `json:"occurrence,omitempty"`
	File       string `json:"file,omitempty"`
	Line       int    `json:"line,omitempty"`
	Message    string `json:"message,omitempty"`
	// Flaky says the test failed (Message) and then passed on a rerun:
	// kept with the failures for `testdex failures` to show, never rerun
	// by `run --failed`.
	Flaky bool `json:"flaky,omitempty"`
	// Quarantined says the test is on the root's quarantine list: its
	// failure did not fail the run.
	Quarantined bool `json:"quarantined,omitempty"`
}

// BatchError is a batch that failed without per-test results.
type BatchError struct {
	Batch   string `json:"batch"`
	Cause   string `json:"cause"`
	Message string `json:"message"`
}

// LeakedProcess is a process a batch left running.
type LeakedProcess struct {
	Batch   string `json:"batch"`
	PID     int    `json:"pid"`
	Command string `json:"command"`
}

// NewSummary returns an empty Summary, ready to receive events.
func NewSummary() *Summary { return &Summary{result: map[resultKey]testdex.Event{}} }

// Event implements Handler. It is not safe for concurrent use: Run
// delivers events one at a time.
func (s *Summary) Event(e testdex.Event) error {
	if s.result == nil {
		s.result = map[resultKey]testdex.Event{}
	}
	if s.Start.IsZero() || e.Time.Before(s.Start) && !e.Time.IsZero() {
		s.Start = e.Time
	}
	if e.Time.After(s.End) {
		s.End = e.Time
	}
	switch {
	case e.Action == testdex.ActionError:
		s.Errors = append(s.Errors, BatchError{Batch: e.Batch, Cause: e.Cause, Message: e.Message})
		switch e.Cause {
		case testdex.CauseTimeout:
			s.TimedOut = true
		case testdex.CauseToolchain:
			if !contains(s.Missing, e.Message) {
				s.Missing = append(s.Missing, e.Message)
			}
		}
	case e.ID == "" && len(e.Leaked) > 0:
		for _, l := range e.Leaked {
			s.Leaked = append(s.Leaked, LeakedProcess{Batch: e.Batch, PID: l.PID, Command: l.Command})
		}
	case e.ID != "" && e.Action.Final():
		k := resultKey{e.ID, e.Occurrence}
		old, ok := s.result[k]
		if ok && e.Attempt > 0 && !rerunResult(e.Action) {
			return nil // a rerun that did not run the test (its batch failed) leaves the earlier result
		}
		if !ok {
			s.order = append(s.order, k)
		} else {
			s.count(old, -1)
		}
		s.result[k] = e // the same occurrence reported again (a retried test): the later result is the one
		s.count(e, 1)
	}
	return nil
}

// rerunResult reports whether a rerun's result replaces the earlier one:
// a pass, a failure or the flaky verdict do; a skip or "unreported" (the
// rerun did not reach the test) never hides an earlier failure.
func rerunResult(a testdex.Action) bool {
	return a == testdex.ActionPass || a == testdex.ActionFail || a == testdex.ActionFlaky
}

// count adds d to the count e's result falls in.
func (s *Summary) count(e testdex.Event, d int) {
	if e.Kind == testdex.KindSuite && (e.Action != testdex.ActionFail || e.Message == "") {
		return // a suite's result is its tests'
	}
	switch e.Action {
	case testdex.ActionPass:
		s.Passed += d
	case testdex.ActionSkip:
		s.Skipped += d
	case testdex.ActionUnreported:
		s.Unreported += d
	case testdex.ActionUnchanged:
		s.Unchanged += d
	case testdex.ActionFail:
		s.Failed += d
	case testdex.ActionFlaky:
		s.Flaky += d
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// Finish completes the summary once the stream ended: the failures list
// and the order of leaked processes.
func (s *Summary) Finish() {
	s.Failures, s.Flakes = s.Failures[:0], s.Flakes[:0]
	s.Inner = nil
	for _, k := range s.order {
		e := s.result[k]
		if e.Inner != nil {
			if s.Inner == nil {
				s.Inner = &testdex.Inner{}
			}
			s.Inner.Add(e.Inner)
		}
		f := Failure{ID: e.ID, Framework: e.Framework, Occurrence: e.Occurrence, File: e.File, Line: e.Line, Message: e.Message}
		switch {
		case e.Action == testdex.ActionFail && (e.Kind != testdex.KindSuite || e.Message != ""):
			s.Failures = append(s.Failures, f)
		case e.Action == testdex.ActionFlaky && (e.Kind != testdex.KindSuite || e.Message != ""):
			f.Flaky = true
			s.Flakes = append(s.Flakes, f)
		}
	}
	s.pruneParents()
	s.Quarantined = s.Quarantined[:0]
	if len(s.Quarantine) > 0 {
		kept := s.Failures[:0]
		for _, f := range s.Failures {
			if s.Quarantine[f.ID] {
				f.Quarantined = true
				s.Quarantined = append(s.Quarantined, f)
			} else {
				kept = append(kept, f)
			}
		}
		s.Failures = kept
	}
	sort.SliceStable(s.Leaked, func(i, j int) bool { return s.Leaked[i].PID < s.Leaked[j].PID })
}

// pruneParents leaves a parent that failed (or was flaky) only because a
// subtest or row did (no message of its own) to its failed (flaky)
// descendants, so that rerunning the failures reruns exactly them. It is
// still counted. The tree is the events' Parent links.
func (s *Summary) pruneParents() {
	prune := func(list []Failure, a testdex.Action) []Failure {
		under := s.ancestorsOf(func(e testdex.Event) bool { return e.Action == a }, nil)
		kept := list[:0]
		for _, f := range list {
			if f.Message != "" || !under[f.ID] {
				kept = append(kept, f)
			}
		}
		return kept
	}
	s.Failures = prune(s.Failures, testdex.ActionFail)
	s.Flakes = prune(s.Flakes, testdex.ActionFlaky)
}

// ancestorsOf returns the IDs that have a descendant among the results
// matching ok, following the events' Parent links, and those of up
// where no event links an ID (a parametrized function, which pytest
// does not report, between its rows and their class).
func (s *Summary) ancestorsOf(ok func(testdex.Event) bool, up map[string]string) map[string]bool {
	parent := make(map[string]string, len(s.result)+len(up))
	for id, p := range up {
		parent[id] = p
	}
	for k, e := range s.result {
		if e.Parent != "" || parent[k.id] == "" {
			parent[k.id] = e.Parent
		}
	}
	out := map[string]bool{}
	for k, e := range s.result {
		if !ok(e) {
			continue
		}
		for p := parent[k.id]; p != "" && !out[p]; p = parent[p] {
			out[p] = true
		}
	}
	return out
}

// OK reports whether nothing failed: no test failed (but quarantined
// ones: Quarantined) and no batch failed without results (the timeout
// included).
func (s *Summary) OK() bool {
	return len(s.Errors) == 0 && (s.Failed == 0 || len(s.Failures) == 0 && len(s.Quarantined) > 0)
}

// NothingRan reports whether the runners reported no test at all (the
// listed tests selected, if any, ended unreported): a path whose file no
// build compiles, a framework testdex cannot run. Not a pass: as seed
// 003's "no tests found", exit 2. A run whose tests were all unchanged
// (`--changed`) ran nothing on purpose.
func (s *Summary) NothingRan() bool {
	return s.Ran() == 0 && s.Unchanged == 0
}

// Ran is the number of tests the runners reported.
func (s *Summary) Ran() int { return s.Passed + s.Failed + s.Skipped + s.Flaky }

// Results returns each result's final event, in the order the tests
// ended: one per test and occurrence (tests sharing an ID each have
// theirs).
func (s *Summary) Results() []testdex.Event {
	out := make([]testdex.Event, 0, len(s.order))
	for _, k := range s.order {
		out = append(out, s.result[k])
	}
	return out
}

// Outcome returns the result of the test id taken over its occurrences:
// a failure if any failed, else the first occurrence's result; ok is
// false when no result of id was received.
func (s *Summary) Outcome(id string) (e testdex.Event, ok bool) {
	e, ok = s.result[resultKey{id, 0}]
	for occ := 1; ok && e.Action != testdex.ActionFail; occ++ {
		next, more := s.result[resultKey{id, occ}]
		if !more {
			break
		}
		if next.Action == testdex.ActionFail {
			e = next
		}
	}
	return e, ok
}
