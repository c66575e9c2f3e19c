package skilltest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lang"
	"github.com/testdex/testdex/internal/lines"
)

// testEvent emits the events of the one test a command runs.
type testEvent struct {
	scope, name string
	emit        func(lang.RunEvent)
	start       time.Time
}

func (t testEvent) run() {
	t.emit(lang.RunEvent{Action: testdex.ActionRun, Scope: t.scope, Name: t.name})
}

func (t testEvent) output(s string) {
	t.emit(lang.RunEvent{Action: testdex.ActionOutput, Scope: t.scope, Name: t.name, Output: s})
}

// end emits the result; elapsed <= 0 means the time since the parser
// was made.
func (t testEvent) end(a testdex.Action, msg string, elapsed float64) {
	t.endCounted(a, msg, elapsed, nil)
}

// endCounted emits the result with the test's own counts.
func (t testEvent) endCounted(a testdex.Action, msg string, elapsed float64, inner *testdex.Inner) {
	if elapsed <= 0 {
		elapsed = time.Since(t.start).Seconds()
	}
	t.emit(lang.RunEvent{Action: a, Scope: t.scope, Name: t.name, Message: msg, Elapsed: elapsed, Inner: inner})
}

// counts is the protocol's result, {passed, failed, errors}, with the
// checks' counts written as an output line.
type counts struct {
	Passed, Failed, Skipped int
	Errors                  []string
}

func (c counts) String() string {
	s := fmt.Sprintf("skilltest: %d passed, %d failed", c.Passed, c.Failed)
	if c.Skipped > 0 {
		s += fmt.Sprintf(", %d skipped", c.Skipped)
	}
	return s + "\n"
}

// inner is the counts as the event carries them.
func (c counts) inner() *testdex.Inner {
	return &testdex.Inner{Passed: c.Passed, Failed: c.Failed, Skipped: c.Skipped, Errors: c.Errors}
}

// failing says whether the counts fail the test: a failed check, or an
// error reported with no failure counted (never a false green; the seed
// would pass it).
func (c counts) failing() bool { return c.Failed > 0 || len(c.Errors) > 0 }

// failMessage is the failure's message: the errors, or the count.
func (c counts) failMessage() string {
	if len(c.Errors) > 0 {
		return strings.Join(c.Errors, "\n")
	}
	return fmt.Sprintf("%d failed", c.Failed)
}

// errorTexts renders the protocol's errors, strings or anything else
// (an Error serialised as an object), one string each.
func errorTexts(raw []json.RawMessage) []string {
	out := make([]string, 0, len(raw))
	for _, r := range raw {
		var s string
		if json.Unmarshal(r, &s) == nil {
			out = append(out, s)
			continue
		}
		var m struct{ Message string }
		if json.Unmarshal(r, &m) == nil && m.Message != "" {
			out = append(out, m.Message)
			continue
		}
		out = append(out, string(bytes.TrimSpace(r)))
	}
	return out
}

// outputLines passes a stream through, line by line, as the test's
// output: the lines joined are the stream.
func outputLines(ev testEvent) lines.Splitter {
	return lines.Splitter{Newline: true, Line: func(l []byte) { ev.output(string(l)) }}
}
