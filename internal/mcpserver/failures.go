package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/workspace"
)

// FailuresInput is the last_test_failures tool's input: it takes none.
type FailuresInput struct{}

// FailuresOutput is the last_test_failures tool's structured result.
type FailuresOutput struct {
	// Ran is false when no run of the root was recorded yet (Failures is
	// then empty too): "no run yet" is not "the last run passed".
	Ran      bool      `json:"ran" jsonschema:"whether a run of the workspace root was recorded; false means no run yet, not a passing run"`
	Failures []Failure `json:"failures" jsonschema:"the failed tests of the last run, in the order they failed; empty when all passed or nothing ran yet; cut to the budget, with more counting the rest"`
	// More counts the failures the budget left out; Whole names the
	// whole answer then.
	More  int    `json:"more,omitempty" jsonschema:"failures left out to stay within the budget"`
	Whole string `json:"whole,omitempty" jsonschema:"when the answer was cut to the budget: the resource with every failure"`
	// Rerun is the call that reruns exactly the failures.
	Rerun *RunInput `json:"rerun,omitempty" jsonschema:"the run_tests arguments that rerun exactly these failures"`
}

// Failure is one failed test of the last run.
type Failure struct {
	ID         string `json:"id" jsonschema:"the test ID, as run_tests takes it"`
	Occurrence int    `json:"occurrence,omitempty" jsonschema:"which of the tests sharing this ID failed, 0 for the first"`
	File       string `json:"file,omitempty" jsonschema:"root-relative"`
	Line       int    `json:"line,omitempty"`
	Message    string `json:"message,omitempty"`
	// Verdict is what the per-test history makes of the failure.
	Verdict string `json:"verdict,omitempty" jsonschema:"what the test's recorded runs say: new failure, flaky: failed 3 of 20 runs, broken since abc1234"`
	// Flaky and Quarantined say the test passed on a rerun, or is on the
	// root's quarantine list: neither failed the run.
	Flaky       bool `json:"flaky,omitempty" jsonschema:"it failed and then passed on a rerun: not a failure of the run, not rerun"`
	Quarantined bool `json:"quarantined,omitempty" jsonschema:"it is on the quarantine list: its failure did not fail the run"`
}

func addFailures(s *mcp.Server, c Config) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "last_test_failures",
		Description: "The failed tests of the last run of the workspace root (by run_tests or 'testdex run'), with file, " +
			"line and message. A test that failed only through a subtest is left to the subtest, so the IDs rerun exactly the failures.",
	}, c.failures)
}

// failures adapts workspace.Failures. The failures are kept per root in
// the cache folder, so they survive the session (seed 004 kept them in a
// session slot) and are shared with the CLI. Every run writes the file,
// empty when all passed, so a missing file means no run yet.
func (c Config) failures(_ context.Context, _ *mcp.CallToolRequest, _ FailuresInput) (*mcp.CallToolResult, FailuresOutput, error) {
	ws, err := c.workspace()
	if err != nil {
		return nil, FailuresOutput{}, err
	}
	out := FailuresOutput{Failures: []Failure{}}
	var odd []string
	fs, ran, err := ws.Failures(func(msg string) { odd = append(odd, msg) })
	switch {
	case errors.Is(err, workspace.ErrNoStore):
		return nil, FailuresOutput{}, errors.New("failures are not kept while the cache is off (unset TESTDEX_CACHE_DIR=off and run the tests again)")
	case err != nil:
		return nil, FailuresOutput{}, err
	case len(odd) > 0:
		return textResult(strings.Join(odd, "\n") + "\n(call run_tests to record the failures again)"), out, nil
	case !ran:
		return textResult("no run yet for this workspace root (call run_tests first)"), out, nil
	}
	out.Ran = true
	verdicts := ws.FailureVerdicts(fs, "")
	var failed []Failure
	for _, f := range fs {
		mf := Failure{ID: f.ID, Occurrence: f.Occurrence, File: f.File, Line: f.Line, Message: f.Message,
			Verdict: verdicts[f.ID], Flaky: f.Flaky, Quarantined: f.Quarantined}
		out.Failures = append(out.Failures, mf)
		if !f.Flaky {
			failed = append(failed, mf)
		}
	}
	if len(failed) > 0 {
		out.Rerun = rerunCall(failed, RunInput{}, c.budget(), true)
	}
	res, cut := fitAnswer(c, out, func(step int, whole string) (string, FailuresOutput, bool) {
		if step == 0 {
			return failuresText(out), out, false
		}
		l, last := stepLimits(step)
		part := out
		n := l.keep(len(out.Failures))
		part.Failures, part.More, part.Whole = make([]Failure, n), len(out.Failures)-n, whole
		for i, f := range out.Failures[:n] {
			f.Message = cutMessage(f.Message, l.frames, l.bytes)
			part.Failures[i] = f
		}
		return failuresText(part), part, last
	})
	return res, cut, nil
}

// failuresText is one line per failure (its message indented below when
// it has more lines), the failures left out, the rerun call and a count.
func failuresText(out FailuresOutput) string {
	var b strings.Builder
	for _, f := range out.Failures {
		loc := f.File
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		fmt.Fprintf(&b, "%s  %s  %s\n", textID(f.ID), loc, strings.ReplaceAll(f.Message, "\n", "\n    "))
	}
	total := len(out.Failures) + out.More
	if total == 0 {
		b.WriteString("the last run had no failures")
		return b.String()
	}
	if out.More > 0 {
		fmt.Fprintf(&b, "... and %d more: %s\n", out.More, out.Whole)
	}
	if out.Rerun != nil {
		b.WriteString("rerun: run_tests " + callJSON(out.Rerun) + "\n")
	}
	fmt.Fprintf(&b, "%d failures in the last run", total)
	return b.String()
}
