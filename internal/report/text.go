// Package report holds the handlers over a run's event stream: the
// terminal view, JSON Lines and JUnit XML. Each is a run.Handler; a saved
// JSON Lines stream can be replayed into any of them.
package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/testdex/testdex"
)

// Text is the human view: a line per batch, every failure with its
// location, message and output, and a closing count line
// ("12 passed, 1 failed, 2 skipped"). Verbose also names passing tests.
type Text struct {
	W       io.Writer
	Verbose bool

	out      map[string]*strings.Builder // per test, until it ends
	batchOut strings.Builder
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
	case e.ID == "":
		return t.batch(e)
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

func (t *Text) batch(e testdex.Event) error {
	switch e.Action {
	case testdex.ActionStart:
		t.batchOut.Reset()
	case testdex.ActionPass:
		fmt.Fprintf(t.W, "ok    %s (%.1fs)\n", e.Batch, e.Elapsed)
	case testdex.ActionFail:
		if s := strings.TrimRight(t.batchOut.String(), "\n"); s != "" {
			for _, l := range strings.Split(s, "\n") {
				fmt.Fprintf(t.W, "    > %s\n", l)
			}
		}
		fmt.Fprintf(t.W, "FAIL  %s (%.1fs)\n", e.Batch, e.Elapsed)
	}
	return nil
}

// Summary prints the closing lines: leaked processes, a timeout, the
// duration, then the counts alone on the last line, as "N passed, N
// failed, N skipped" (the form CI systems read).
func Summary(w io.Writer, passed, failed, skipped int, timedOut bool, timeout string, leaked []string, elapsed float64) {
	for _, l := range leaked {
		fmt.Fprintf(w, "leaked: %s (killed)\n", l)
	}
	if timedOut {
		fmt.Fprintf(w, "timed out after %s\n", timeout)
	}
	fmt.Fprintf(w, "ran %d tests in %.1fs\n", passed+failed+skipped, elapsed)
	fmt.Fprintf(w, "%d passed, %d failed, %d skipped\n", passed, failed, skipped)
}
