package skilltest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/lines"
)

// tapParser reports a declared command of format tap. TAP is a protocol
// whose stream is stdout by definition (the Test Anything Protocol,
// versions 12 to 14), so stdout is the right channel here: every line is
// the test's output, and the top-level lines (not indented: TAP 14
// subtests are) are its result: the plan, "ok"/"not ok" points with
// SKIP and TODO directives, and "Bail out!".
type tapParser struct {
	ev      testEvent
	out     lines.Splitter
	planned int // -1 until a plan is read
	planWhy string
	points  int
	counts  counts
	failed  []string // the "not ok" descriptions
	skipWhy string   // the first SKIP reason
	bail    string
	bailed  bool
}

func newTAPParser(ev testEvent) *tapParser {
	ev.run()
	t := &tapParser{ev: ev, planned: -1}
	t.out = lines.Splitter{Newline: true, Line: func(l []byte) { t.line(string(l)) }}
	return t
}

func (t *tapParser) Write(b []byte) (int, error) {
	return t.out.Write(b)
}

var (
	tapPoint = regexp.MustCompile(`^(not ok|ok)\b\s*(\d*)\s*(?:-\s*)?(.*?)(?:\s*#\s*(?i:(skip|todo))\S*\s*(.*))?$`)
	tapPlan  = regexp.MustCompile(`^1\.\.(\d+)\s*(?:#\s*(?i:skip)\S*\s*(.*))?$`)
)

// line reads one line: it is output, and at the top level a TAP element.
func (t *tapParser) line(l string) {
	t.ev.output(l)
	if t.bailed {
		return
	}
	l = strings.TrimRight(l, "\r\n")
	if m := tapPlan.FindStringSubmatch(l); m != nil {
		t.planned, _ = strconv.Atoi(m[1])
		t.planWhy = m[2]
		return
	}
	if rest, ok := strings.CutPrefix(l, "Bail out!"); ok {
		t.bailed, t.bail = true, strings.TrimSpace(rest)
		return
	}
	m := tapPoint.FindStringSubmatch(l)
	if m == nil {
		return
	}
	t.points++
	ok, directive, why := m[1] == "ok", strings.ToLower(m[4]), m[5]
	switch {
	case directive == "skip":
		t.counts.Skipped++
		if t.skipWhy == "" {
			t.skipWhy = why
		}
	case ok || directive == "todo":
		t.counts.Passed++
	default:
		t.counts.Failed++
		t.failed = append(t.failed, l)
	}
}

// Close judges the stream. A bail out, a "not ok" (TODO aside), a count
// that differs from the plan, a stream without plan or points, or a
// non-zero exit fails the test; a plan of 1..0 or points all skipped skip
// it; a killed command (exit code -1) is left to the core.
func (t *tapParser) Close(exitCode int) error {
	t.out.Flush()
	if exitCode < 0 {
		return nil
	}
	var inner *testdex.Inner
	if t.points > 0 || t.planned >= 0 {
		t.ev.output(t.counts.String())
		c := t.counts
		c.Errors = t.failed
		inner = c.inner()
	}
	end := func(a testdex.Action, msg string) { t.ev.endCounted(a, msg, 0, inner) }
	switch {
	case t.bailed:
		end(testdex.ActionFail, "bail out: "+t.bail)
	case t.counts.Failed > 0:
		end(testdex.ActionFail, strings.Join(t.failed, "\n"))
	case t.planned < 0 && t.points == 0:
		end(testdex.ActionFail, fmt.Sprintf("no TAP plan or test points on stdout (exit code %d)", exitCode))
	case t.planned >= 0 && t.planned != t.points:
		end(testdex.ActionFail, fmt.Sprintf("planned %d tests, ran %d", t.planned, t.points))
	case exitCode != 0:
		end(testdex.ActionFail, fmt.Sprintf("exited %d", exitCode))
	case t.points == 0:
		end(testdex.ActionSkip, t.planWhy)
	case t.counts.Skipped == t.points:
		end(testdex.ActionSkip, t.skipWhy)
	default:
		end(testdex.ActionPass, "")
	}
	return nil
}
