// Package report holds the handlers over a run's event stream: the
// terminal view, JSON Lines and JUnit XML. Each is a run.Handler; a saved
// JSON Lines stream can be replayed into any of them.
package report

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/run"
)

// Text is the human view: a line per batch, every failure with its
// location, message and output, and a closing count line
// ("12 passed, 1 failed, 2 skipped"). Verbose also names passing tests.
type Text struct {
	W       io.Writer
	Verbose bool

	out      map[string]*strings.Builder // per test, until it ends
	batchOut strings.Builder
	errored  bool // the batch's error was shown (its output is in it)
}

const maxShown = 64 << 10 // bytes of a failed test's output shown

// Event implements run.Handler.
func (t *Text) Event(e testdex.Event) error {
	if t.out == nil {
		t.out = map[string]*strings.Builder{}
	}
	switch {
	case e.Action == testdex.ActionOutput && e.ID == "":
		if t.batchOut.Len() < maxShown {
			t.batchOut.WriteString(e.Output)
		}
	case e.Action == testdex.ActionOutput:
		b := t.out[e.ID]
		if b == nil {
			b = &strings.Builder{}
			t.out[e.ID] = b
		}
		if b.Len() < maxShown {
			b.WriteString(e.Output)
		}
	case e.Action == testdex.ActionError:
		t.batchError(e)
	case e.ID == "":
		return t.batch(e)
	case e.Action == testdex.ActionUnreported && t.Verbose:
		fmt.Fprintf(t.W, "--- NOT REPORTED: %s %s\n", e.ID, e.Message)
	case e.Action == testdex.ActionFail:
		t.fail(e)
	case e.Action == testdex.ActionPass && t.Verbose:
		fmt.Fprintf(t.W, "--- PASS: %s (%.2fs)\n", e.ID, e.Elapsed)
	case e.Action == testdex.ActionSkip && t.Verbose:
		fmt.Fprintf(t.W, "--- SKIP: %s %s\n", e.ID, e.Message)
	}
	if e.Action == testdex.ActionPass || e.Action == testdex.ActionSkip || e.Action == testdex.ActionFail {
		delete(t.out, e.ID)
	}
	return nil
}

func (t *Text) fail(e testdex.Event) {
	loc := ""
	if e.File != "" {
		loc = " " + e.File
		if e.Line > 0 {
			loc += fmt.Sprintf(":%d", e.Line)
		}
	}
	fmt.Fprintf(t.W, "--- FAIL: %s%s (%.2fs)\n", e.ID, loc, e.Elapsed)
	if e.Message != "" {
		fmt.Fprintf(t.W, "    %s\n", e.Message)
	}
	if b := t.out[e.ID]; b != nil && b.Len() > 0 {
		for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
			fmt.Fprintf(t.W, "    | %s\n", l)
		}
	}
}

// batchError shows a batch that failed without per-test results: the
// runner's own words, indented.
func (t *Text) batchError(e testdex.Event) {
	fmt.Fprintf(t.W, "--- ERROR: %s\n", e.Batch)
	for _, l := range strings.Split(strings.TrimRight(e.Message, "\n"), "\n") {
		fmt.Fprintf(t.W, "    %s\n", l)
	}
	t.errored = true
}

func (t *Text) batch(e testdex.Event) error {
	switch e.Action {
	case testdex.ActionStart:
		t.batchOut.Reset()
		t.errored = false
	case testdex.ActionPass:
		fmt.Fprintf(t.W, "ok    %s (%.1fs)\n", e.Batch, e.Elapsed)
	case testdex.ActionFail:
		if s := strings.TrimRight(t.batchOut.String(), "\n"); s != "" && !t.errored {
			for _, l := range strings.Split(s, "\n") {
				fmt.Fprintf(t.W, "    > %s\n", l)
			}
		}
		fmt.Fprintf(t.W, "FAIL  %s (%.1fs)\n", e.Batch, e.Elapsed)
	}
	return nil
}

// Summary prints the closing lines: leaked processes, a timeout, the
// number of tests the runners reported and the duration, then the counts
// alone on the last line, "N passed, N failed, N skipped" (the form CI
// systems read), followed by the tests not reported and the batch errors
// when there are any.
func Summary(w io.Writer, s *run.Summary, timeout time.Duration) {
	for _, l := range s.Leaked {
		fmt.Fprintf(w, "leaked: process %d (%s) from %s (killed)\n", l.PID, l.Command, l.Batch)
	}
	if s.TimedOut {
		fmt.Fprintf(w, "timed out after %s\n", timeout)
	}
	for _, id := range s.Unmatched {
		fmt.Fprintf(w, "no test matches %s: the runner ran nothing under it\n", id)
	}
	fmt.Fprintf(w, "ran %d tests in %.1fs\n", s.Ran(), s.End.Sub(s.Start).Seconds())
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped", s.Passed, s.Failed, s.Skipped)
	if s.Unreported > 0 {
		fmt.Fprintf(w, ", %d not reported", s.Unreported)
	}
	if n := len(s.Errors); n == 1 {
		fmt.Fprint(w, ", 1 batch error")
	} else if n > 1 {
		fmt.Fprintf(w, ", %d batch errors", n)
	}
	fmt.Fprintln(w)
}
