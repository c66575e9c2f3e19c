package run

import (
	"context"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/proc"
)

// Summary is a run's outcome.
type Summary struct {
	mu sync.Mutex
	// Passed, Failed and Skipped count tests by their final result.
	Passed, Failed, Skipped int
	// Failures are the failed tests in the order they failed.
	Failures []Failure
	// BatchesFailed counts batches that ended in failure: a failing test,
	// a build error, a missing toolchain, a runner that exited non-zero.
	BatchesFailed int
	// TimedOut is true when the whole run hit its timeout.
	TimedOut bool
	Timeout  time.Duration
	// Leaked lists processes left behind by a runner, which were killed.
	Leaked []LeakedProcess
	// Missing lists the toolchains a batch could not start, each as
	// proc.MissingError words it ("go not found in PATH (...)").
	Missing []string
	Start   time.Time
	End     time.Time

	result map[string]testdex.Action
}

// Failure is one failed test: what `testdex failures` shows and
// `testdex run --failed` reruns.
type Failure struct {
	ID        string            `json:"id"`
	Framework testdex.Framework `json:"framework"`
	File      string            `json:"file,omitempty"`
	Line      int               `json:"line,omitempty"`
	Message   string            `json:"message,omitempty"`
}

// LeakedProcess is a process a batch left running.
type LeakedProcess struct {
	Batch   string `json:"batch"`
	PID     int    `json:"pid"`
	Command string `json:"command"`
}

func newSummary(timeout time.Duration) *Summary {
	return &Summary{Timeout: timeout, Start: time.Now(), result: map[string]testdex.Action{}}
}

// add records a test's final result; a later result replaces an earlier
// one (a retried test).
func (s *Summary) add(e testdex.Event) {
	switch e.Action {
	case testdex.ActionPass, testdex.ActionFail, testdex.ActionSkip:
	default:
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if e.ID == "" {
		if e.Action == testdex.ActionFail {
			s.BatchesFailed++
		}
		return
	}
	s.result[e.ID] = e.Action
	if e.Action == testdex.ActionFail {
		for _, f := range s.Failures {
			if f.ID == e.ID {
				return
			}
		}
		s.Failures = append(s.Failures, Failure{ID: e.ID, Framework: e.Framework, File: e.File, Line: e.Line, Message: e.Message})
	}
}

func (s *Summary) addMissing(msg string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, m := range s.Missing {
		if m == msg {
			return
		}
	}
	s.Missing = append(s.Missing, msg)
}

func (s *Summary) addLeak(batch string, l proc.Leak) {
	s.mu.Lock()
	s.Leaked = append(s.Leaked, LeakedProcess{Batch: batch, PID: l.PID, Command: l.Command})
	s.mu.Unlock()
}

func (s *Summary) finish(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.End = time.Now()
	s.TimedOut = ctx.Err() == context.DeadlineExceeded
	s.Passed, s.Failed, s.Skipped = 0, 0, 0
	for _, a := range s.result {
		switch a {
		case testdex.ActionPass:
			s.Passed++
		case testdex.ActionFail:
			s.Failed++
		case testdex.ActionSkip:
			s.Skipped++
		}
	}
	// A test that failed and later passed is no failure; a parent that
	// failed only because a subtest or row did (no message of its own) is
	// left to its failed descendants, so rerunning the failures reruns
	// exactly them.
	kept := s.Failures[:0]
	for _, f := range s.Failures {
		if s.result[f.ID] == testdex.ActionFail && (f.Message != "" || !s.hasFailedDescendant(f.ID)) {
			kept = append(kept, f)
		}
	}
	s.Failures = kept
	sort.SliceStable(s.Leaked, func(i, j int) bool { return s.Leaked[i].PID < s.Leaked[j].PID })
}

// OK reports whether everything selected passed or was skipped.
func (s *Summary) OK() bool { return s.Failed == 0 && s.BatchesFailed == 0 && !s.TimedOut }

func (s *Summary) hasFailedDescendant(id string) bool {
	for _, f := range s.Failures {
		if f.ID != id && s.result[f.ID] == testdex.ActionFail && isDescendant(f.ID, id) {
			return true
		}
	}
	return false
}

// isDescendant reports whether child's ID extends parent's at a name
// separator.
func isDescendant(child, parent string) bool {
	rest, ok := strings.CutPrefix(child, parent)
	if !ok || rest == "" {
		return false
	}
	for _, sep := range append(separators, ".", "#") { // JUnit: Class.method()
		if strings.HasPrefix(rest, sep) {
			return true
		}
	}
	return false
}
