package mcpserver

import (
	"fmt"
	"strings"

	"github.com/testdex/testdex"
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
func format(stdout, stderr *capped, sum *run.Summary, exit int) string {
	var b strings.Builder
	b.WriteString(stdout.String())
	if s := stderr.String(); s != "" {
		b.WriteString("--- stderr ---\n" + s)
	}
	if sum.TimedOut {
		fmt.Fprintf(&b, "timed out after %ds\n", int(sum.Timeout.Seconds()))
	}
	fmt.Fprintf(&b, "exit: %d\n", exit)
	return b.String()
}

func leaks(sum *run.Summary) []string {
	var out []string
	for _, l := range sum.Leaked {
		out = append(out, fmt.Sprintf("process %d (%s) from %s", l.PID, l.Command, l.Batch))
	}
	return out
}

// collector keeps each test's final result.
type collector struct {
	order []string
	final map[string]TestResult
}

func (c *collector) add(e testdex.Event) {
	switch {
	case e.ID == "":
	case e.Action == testdex.ActionPass, e.Action == testdex.ActionFail, e.Action == testdex.ActionSkip:
		if c.final == nil {
			c.final = map[string]TestResult{}
		}
		if _, seen := c.final[e.ID]; !seen {
			c.order = append(c.order, e.ID)
		}
		c.final[e.ID] = TestResult{ID: e.ID, Action: e.Action, Elapsed: e.Elapsed, Message: e.Message, File: e.File, Line: e.Line}
	}
}

// results are the final results in the order the tests first ended.
func (c *collector) results() []TestResult {
	out := make([]TestResult, 0, len(c.order))
	for _, id := range c.order {
		out = append(out, c.final[id])
	}
	return out
}
