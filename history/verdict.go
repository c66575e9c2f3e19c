package history

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// The verdicts on a test's recent runs, strongest first: a test that
// fails every run is broken even if it once passed on a rerun.
const (
	Broken     = "broken"      // it failed every run of a streak that is still on (at least MinSample runs)
	Flaky      = "flaky"       // it passed on a rerun, or both failed and passed on one commit
	NewFailure = "new failure" // its newest run failed, and no run before it did
	Failing    = "failing"     // its newest run failed, not often enough to be broken
	OK         = "ok"          // its newest run passed (or skipped), and nothing says flaky
)

// VerdictOptions bound what a verdict reads.
type VerdictOptions struct {
	// Window is how many of a test's newest runs count; <= 0 means 20.
	Window int
	// Label keeps the runs of one profile ("" every run).
	Label string
	// MinSample is the fewest failing runs a broken verdict rests on; <=
	// 0 means 2. (A flaky verdict rests on a pass on a rerun, or on a
	// pass and a failure of one commit: two runs.)
	MinSample int
}

// Verdict is a test's standing over its newest runs.
type Verdict struct {
	ID   string `json:"id"`
	Kind string `json:"verdict"`
	// Runs counts the runs of the window with a result; Failed those whose
	// final result (after its reruns) failed; RetryPassed those where it
	// both failed and passed (on a rerun, or across `run --repeat`'s
	// attempts); Flips the changes of the final
	// result from one run to the next; Infra the failed runs left out
	// because most of their tests failed at once (a crash, a build error,
	// the machine: no test's own failure).
	Runs        int `json:"runs"`
	Failed      int `json:"failed"`
	RetryPassed int `json:"retry_passed"`
	Flips       int `json:"flips"`
	Infra       int `json:"infra,omitempty"`
	// Since is the commit of the first run of a broken test's failing
	// streak; LastFailure when it last failed, LastFailureCommit on which
	// commit.
	Since             string    `json:"since,omitempty"`
	LastFailure       time.Time `json:"last_failure,omitzero"`
	LastFailureCommit string    `json:"last_failure_commit,omitempty"`
}

// String is the verdict as an agent reads it: "new failure", "flaky:
// failed 3 of 20 runs", "broken since abc1234".
func (v Verdict) String() string {
	switch v.Kind {
	case Broken:
		return fmt.Sprintf("broken since %s (failed the last %d runs)", short(v.Since), v.streak())
	case Flaky:
		s := fmt.Sprintf("flaky: failed %d of %d runs", v.Failed+v.RetryPassed, v.Runs)
		if v.RetryPassed > 0 {
			s += fmt.Sprintf(", passed on a rerun %d times", v.RetryPassed)
		}
		return s
	case Failing:
		return fmt.Sprintf("failing: failed %d of %d runs", v.Failed, v.Runs)
	}
	return v.Kind
}

// streak is the length of a broken test's failing streak, kept in Failed
// for a broken verdict's text (see verdictOf).
func (v Verdict) streak() int { return v.Failed }

// short is a commit's first 7 characters ("an unknown commit" for none).
func short(c string) string {
	switch {
	case c == "":
		return "an unknown commit"
	case len(c) > 7:
		return c[:7]
	}
	return c
}

// runResult is one run of one test: its first and final outcomes.
type runResult struct {
	run         Run
	order       string
	first, last string // Pass, Fail or Skip
	lastAttempt int
	infra       bool
	// passed and failed say some attempt passed, some failed: both in
	// one run (a rerun's pass, or `run --repeat`'s attempts) is flaky.
	passed, failed bool
}

// Verdicts returns the verdict on every test of the history's runs (of
// o.Label), from its o.Window newest runs. A run in which at least half of
// the tests failed, five or more, is infrastructure: its failures count
// against no test (Infra).
func (h *History) Verdicts(o VerdictOptions) map[string]Verdict {
	if o.Window <= 0 {
		o.Window = 20
	}
	if o.MinSample <= 0 {
		o.MinSample = 2
	}
	runs := h.runsOf(o.Label)
	byRun := map[string]Run{}
	for _, r := range h.Runs {
		byRun[r.ID] = r
	}
	results := map[string]map[string]*runResult{} // test -> run -> result
	for _, a := range h.Attempts {
		ref, ok := runs[a.Run]
		if !ok {
			continue
		}
		per := results[a.ID]
		if per == nil {
			per = map[string]*runResult{}
			results[a.ID] = per
		}
		rr := per[a.Run]
		if rr == nil {
			rr = &runResult{run: byRun[a.Run], order: ref.order, lastAttempt: -1}
			per[a.Run] = rr
		}
		rr.add(a)
	}
	for run, bad := range infraRuns(results) {
		for _, per := range results {
			if rr := per[run]; rr != nil && bad {
				rr.infra = true
			}
		}
	}
	out := make(map[string]Verdict, len(results))
	for id, per := range results {
		list := make([]*runResult, 0, len(per))
		for _, rr := range per {
			list = append(list, rr)
		}
		slices.SortFunc(list, func(a, b *runResult) int { return strings.Compare(a.order, b.order) })
		if len(list) > o.Window {
			list = list[len(list)-o.Window:]
		}
		out[id] = verdictOf(id, list, o.MinSample)
	}
	return out
}

// add takes one attempt (of any occurrence) into the run's result: an
// attempt fails when any occurrence of it failed.
func (rr *runResult) add(a Attempt) {
	rr.passed = rr.passed || a.Outcome == Pass
	rr.failed = rr.failed || a.Outcome == Fail
	if a.Attempt == 0 && (rr.first == "" || a.Outcome == Fail) {
		rr.first = a.Outcome
	}
	switch {
	case a.Attempt > rr.lastAttempt:
		rr.last, rr.lastAttempt = a.Outcome, a.Attempt
	case a.Attempt == rr.lastAttempt && a.Outcome == Fail:
		rr.last = Fail
	}
}

// infraRuns marks the runs in which at least half of the tests, and five
// or more, failed their first attempt.
func infraRuns(results map[string]map[string]*runResult) map[string]bool {
	total, failed := map[string]int{}, map[string]int{}
	for _, per := range results {
		for run, rr := range per {
			total[run]++
			if rr.first == Fail {
				failed[run]++
			}
		}
	}
	out := map[string]bool{}
	for run, n := range total {
		out[run] = failed[run] >= 5 && 2*failed[run] >= n
	}
	return out
}

// verdictOf judges one test's runs, oldest first.
func verdictOf(id string, runs []*runResult, minSample int) Verdict {
	v := Verdict{ID: id}
	commits := map[string][2]bool{} // commit -> passed, failed (final results)
	prev := ""
	for _, rr := range runs {
		if rr.infra && rr.first == Fail {
			v.Infra++
			continue
		}
		v.Runs++
		switch {
		case rr.passed && rr.failed: // passed on a rerun, or in one repeat and not another
			v.RetryPassed++
		case rr.last == Fail:
			v.Failed++
		}
		if rr.first == Fail || rr.last == Fail {
			v.LastFailure, v.LastFailureCommit = rr.run.Time, rr.run.Commit
		}
		if rr.last == Pass || rr.last == Fail {
			if prev != "" && prev != rr.last {
				v.Flips++
			}
			prev = rr.last
			if c := rr.run.Commit; c != "" {
				pf := commits[c]
				pf[0] = pf[0] || rr.last == Pass
				pf[1] = pf[1] || rr.last == Fail
				commits[c] = pf
			}
		}
	}
	streak, since := failingStreak(runs)
	mixed := false
	for _, pf := range commits {
		mixed = mixed || pf[0] && pf[1]
	}
	switch {
	case streak >= minSample:
		v.Kind, v.Since, v.Failed = Broken, since, streak
	case v.RetryPassed > 0 || mixed: // a pass on a rerun is flaky on its own evidence; a mix takes two runs of one commit
		v.Kind = Flaky
	case streak == 1 && v.Failed == 1:
		v.Kind = NewFailure
	case streak == 1:
		v.Kind = Failing
	default:
		v.Kind = OK
	}
	return v
}

// failingStreak counts the newest runs whose final result failed, back to
// the newest that did not (infra runs are passed over), and the commit of
// the streak's first run.
func failingStreak(runs []*runResult) (n int, since string) {
	for i := len(runs) - 1; i >= 0; i-- {
		rr := runs[i]
		if rr.infra && rr.first == Fail {
			continue
		}
		if rr.last != Fail || rr.passed {
			break
		}
		n, since = n+1, rr.run.Commit
	}
	return n, since
}
