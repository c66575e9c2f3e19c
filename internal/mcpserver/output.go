package mcpserver

import (
	"fmt"
	"strings"
	"time"

	"github.com/testdex/testdex/run"
)

// maxStream caps each stream of run_tests' text, as seed 004 capped the
// runner's stdout and stderr; the structured results are not capped.
const maxStream = 500 << 10

// capped is a buffer that keeps the first maxStream bytes and then marks
// the cut once.
type capped struct {
	b   strings.Builder
	cut bool
}

func (c *capped) Write(p []byte) (int, error) {
	if room := maxStream - c.b.Len(); room < len(p) {
		c.b.Write(p[:max(room, 0)])
		c.cut = true
		return len(p), nil
	}
	c.b.Write(p)
	return len(p), nil
}

func (c *capped) String() string {
	if c.cut {
		return c.b.String() + "\n[TRUNCATED]\n"
	}
	return c.b.String()
}

// format lays out run_tests' text in seed 004's form: stdout, a
// "--- stderr ---" section when stderr is not empty, "timed out after Ns"
// on a timeout, and "exit: N" always.
func format(stdout, stderr *capped, timedOut bool, limit time.Duration, exit int) string {
	var b strings.Builder
	b.WriteString(stdout.String())
	if s := stderr.String(); s != "" {
		b.WriteString("--- stderr ---\n" + s)
	}
	if timedOut {
		fmt.Fprintf(&b, "timed out after %ds\n", int(limit.Seconds()))
	}
	fmt.Fprintf(&b, "exit: %d\n", exit)
	return b.String()
}

// results are each test's final result in the order the tests ended.
func results(sum *run.Summary) []TestResult {
	out := []TestResult{}
	for _, e := range sum.Results() {
		out = append(out, TestResult{ID: e.ID, Action: e.Action, Occurrence: e.Occurrence, Elapsed: e.Elapsed, Message: e.Message, File: e.File, Line: e.Line, Inner: e.Inner})
	}
	return out
}
