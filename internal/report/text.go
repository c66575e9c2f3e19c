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

// Text is the human view: a line per batch; every failed test with its
// location, its message and the last lines of its own output; every batch
// whose runner failed without results with the runner's own words; and,
// from Summary, the closing lines. Verbose also names the passing,
// skipped and unreported tests.
//
// The view is for reading, not for machines (--json is): everything a test
// or a runner wrote is escaped (see Escape), a message's continuation
// lines are indented under its first, and a failure shows at most its
// output's last 50 lines, each cut at 500 bytes, with a note of what was
// left out. A batch's own output (not a test's) is not shown: when the
// runner failed without results its error event carries its last lines.
// Color paints the outcomes with ANSI colours.
//
// The zero value with W set is a plain view. Events must come as Run
// delivers them, batch after batch.
type Text struct {
	W       io.Writer
	Verbose bool
	Color   bool

	out map[string]*outputTail // per test of the current batch, until it ends
}

// Event implements run.Handler. Write errors are not returned: the caller
// owns W and sees them there.
func (t *Text) Event(e testdex.Event) error {
	p := palette{t.Color}
	switch {
	case e.Action == testdex.ActionOutput:
		if e.ID != "" {
			t.tail(e.ID).write(e.Output)
		}
	case e.Action == testdex.ActionError:
		t.header(p.fail("--- ERROR:"), Escape(e.Batch), "")
		t.indented(messageLines(e.Message))
	case e.ID == "":
		t.batch(p, e)
	case e.Action == testdex.ActionFail:
		if e.Kind != testdex.KindSuite || e.Message != "" { // else its tests' failures say it
			t.fail(p, e)
		}
	case e.Action == testdex.ActionFlaky:
		if e.Kind != testdex.KindSuite || e.Message != "" {
			why := ""
			if e.Message != "" {
				why = "; it failed first: " + firstLine(e.Message)
			}
			t.header(p.skip("--- FLAKY:"), fmt.Sprintf("%s (passed on rerun %d%s)", Escape(e.ID), e.Attempt, why), "")
		}
	case e.Action == testdex.ActionPass && e.Kind == testdex.KindBenchmark: // its figures are its result, as go test -bench prints them
		t.header(p.pass("--- BENCH:"), Escape(e.ID), e.Message)
	case !t.Verbose:
	case e.Action == testdex.ActionPass:
		t.header(p.pass("--- PASS:"), fmt.Sprintf("%s (%.2fs)", Escape(e.ID), e.Elapsed), "")
	case e.Action == testdex.ActionSkip:
		t.header(p.skip("--- SKIP:"), Escape(e.ID), e.Message)
	case e.Action == testdex.ActionUnreported:
		t.header(p.quiet("--- NOT REPORTED:"), Escape(e.ID), e.Message)
	case e.Action == testdex.ActionUnchanged:
		t.header(p.quiet("--- UNCHANGED:"), Escape(e.ID), e.Message)
	}
	if e.Action.Final() {
		delete(t.out, e.ID)
	}
	return nil
}

func (t *Text) tail(id string) *outputTail {
	if t.out == nil {
		t.out = map[string]*outputTail{}
	}
	o := t.out[id]
	if o == nil {
		o = &outputTail{}
		t.out[id] = o
	}
	return o
}

// fail shows a failed test: its ID, location and time, its message and
// the end of its output.
func (t *Text) fail(p palette, e testdex.Event) {
	loc := ""
	if e.File != "" {
		loc = " " + Escape(e.File)
		if e.Line > 0 {
			loc += fmt.Sprintf(":%d", e.Line)
		}
	}
	if e.Attempt > 0 {
		loc += fmt.Sprintf(" [rerun %d]", e.Attempt)
	}
	t.header(p.fail("--- FAIL:"), fmt.Sprintf("%s%s (%.2fs)", Escape(e.ID), loc, e.Elapsed), "")
	t.indented(messageLines(e.Message))
	for _, l := range t.out[e.ID].shown() {
		if l == "" {
			fmt.Fprintf(t.W, "    %s\n", p.quiet("|"))
			continue
		}
		fmt.Fprintf(t.W, "    %s %s\n", p.quiet("|"), Escape(l))
	}
}

// batch shows a batch's end.
func (t *Text) batch(p palette, e testdex.Event) {
	switch e.Action {
	case testdex.ActionPass:
		fmt.Fprintf(t.W, "%s    %s (%.1fs)\n", p.pass("ok"), Escape(e.Batch), e.Elapsed)
	case testdex.ActionFail:
		fmt.Fprintf(t.W, "%s  %s (%.1fs)\n", p.fail("FAIL"), Escape(e.Batch), e.Elapsed)
	default:
		return
	}
	clear(t.out) // what the batch's unfinished tests printed
}

// header writes "LABEL SUBJECT", followed on the same line by the first
// line of msg, and msg's other lines indented under it.
func (t *Text) header(label, subject, msg string) {
	ls := messageLines(msg)
	if len(ls) == 0 {
		fmt.Fprintf(t.W, "%s %s\n", label, subject)
		return
	}
	fmt.Fprintf(t.W, "%s %s %s\n", label, subject, ls[0])
	t.indented(ls[1:])
}

// indented writes each line indented by four spaces.
func (t *Text) indented(ls []string) {
	for _, l := range ls {
		if l == "" {
			fmt.Fprintln(t.W)
			continue
		}
		fmt.Fprintf(t.W, "    %s\n", l)
	}
}

// maxMessageLines bounds the lines of a message the view shows (the
// first ones: a message's head says what went wrong).
const maxMessageLines = 50

// messageLines returns a message's lines for display: escaped, each cut at
// shownLineBytes, the first maxMessageLines of them.
func messageLines(msg string) []string {
	ls := lines(msg)
	more := 0
	if len(ls) > maxMessageLines {
		ls, more = ls[:maxMessageLines], len(ls)-maxMessageLines
	}
	for i, l := range ls {
		ls[i] = Escape(cutLine(l, len(l)))
	}
	if more > 0 {
		ls = append(ls, fmt.Sprintf("[... %d more lines; testdex run --json has the whole message]", more))
	}
	return ls
}

// firstLine is a message's first line, escaped.
func firstLine(msg string) string {
	l, _, _ := strings.Cut(msg, "\n")
	return Escape(l)
}
