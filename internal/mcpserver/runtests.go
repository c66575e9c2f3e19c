package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/run"
)

// RunInput is the run_tests tool's input. The zero value runs every test
// of the root with the default timeout.
type RunInput struct {
	IDs      []string `json:"ids,omitempty" jsonschema:"test IDs as discover_tests gives them (FILE::NAME); each runs with its subtests"`
	Paths    []string `json:"paths,omitempty" jsonschema:"files or folders whose tests run, relative to the workspace root; no ids and no paths runs everything"`
	Timeout  float64  `json:"timeout,omitempty" jsonschema:"limit for the whole run in seconds, more than 0 and at most 1800; 0 or none means the default 300"`
	Coverage bool     `json:"coverage,omitempty" jsonschema:"also record what each test executes, for tests_covering (Go: each top-level test in its own process)"`
}

// RunOutput is the run_tests tool's structured result.
type RunOutput struct {
	// Exit is 0 when every selected test passed or was skipped, 1 when one
	// failed, 124 when the run timed out (seed 004's codes).
	Exit     int  `json:"exit" jsonschema:"0 all passed, 1 a test failed, 124 the run timed out, 130 the run was cancelled (the server is stopping)"`
	TimedOut bool `json:"timed_out"`
	// Cancelled is true when the server stopped (SIGTERM) during the run.
	Cancelled bool `json:"cancelled,omitempty"`
	Passed    int  `json:"passed"`
	Failed    int  `json:"failed"`
	Skipped   int  `json:"skipped"`
	// Unreported counts listed tests the runner never reported; Errors the
	// batches whose runner failed without per-test results.
	Unreported int `json:"unreported"`
	Errors     int `json:"errors"`
	// Warnings are the run's warnings, as the text's stderr part has them
	// (a batch whose coverage recorded nothing, with the reason).
	Warnings []string `json:"warnings,omitempty" jsonschema:"the run's warnings, such as a project whose coverage recorded nothing and why; they fail nothing"`
	// Results hold each test's final result, in the order they ended.
	Results []TestResult `json:"results" jsonschema:"each test's final result in the order the tests ended"`
	// Inner sums the checks the tests counted inside themselves (the
	// seed's totalPassed, totalFailed and errors), nil when none did.
	Inner *testdex.Inner `json:"inner,omitempty" jsonschema:"the sum of the checks the tests counted inside themselves, errors flattened; absent when no test counts its checks"`
}

// TestResult is one test's final result: pass, fail or skip.
type TestResult struct {
	ID     string         `json:"id"`
	Action testdex.Action `json:"action" jsonschema:"pass, fail, skip or unreported (listed but the runner did not report it)"`
	// Occurrence tells apart tests the runner reported under one ID.
	Occurrence int     `json:"occurrence,omitempty" jsonschema:"which of the tests sharing this ID (same full name) the result is, 0 for the first; each is a result of its own"`
	Elapsed    float64 `json:"elapsed,omitempty" jsonschema:"seconds"`
	Message    string  `json:"message,omitempty" jsonschema:"the failure's or skip's reason"`
	File       string  `json:"file,omitempty" jsonschema:"the failure's file, root-relative"`
	Line       int     `json:"line,omitempty"`
	// Inner is what the test counted of its own checks, where it counts
	// them (a skill-test module's {passed, failed, errors}).
	Inner *testdex.Inner `json:"inner,omitempty" jsonschema:"the checks the test counted inside itself (a skill-test module's passed, failed and errors), where it counts them"`
}

func addRun(s *mcp.Server, c Config) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "run_tests",
		Description: "Run tests through their native runners (go test, pytest, jest, cargo, maven...) and report every test " +
			"under its ID. The text is testdex's terminal view (failures with location, message and output; a count line), " +
			"then '--- stderr ---' with discovery problems and warnings (a project whose coverage recorded nothing, and why) when there are any, 'timed out after Ns' on a timeout, and " +
			"'exit: N' (0 passed, 1 a test failed, 124 timed out). Failing tests are a normal result, not an error.",
		InputSchema: inputSchema[RunInput](),
	}, c.runTool)
}

// runTool checks the input and calls runTests with a context that ends
// when it returns, which stops its progress notifications before the
// result is sent.
func (c Config) runTool(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	if err := checkTimeout(in.Timeout); err != nil {
		return nil, RunOutput{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if c.stopping != nil {
		defer context.AfterFunc(c.stopping, cancel)() // the server is stopping: end the run, answer with what ran
	}
	return c.runTests(ctx, req, in)
}

// runTests adapts run.Run as 'testdex run' calls it: the same selection,
// the same text view, the failures saved for last_test_failures and
// 'testdex run --failed'.
func (c Config) runTests(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	ws, ix, paths, err := c.load(ctx, in.Paths)
	if err != nil {
		return nil, RunOutput{}, err
	}
	stdout, stderr := &capped{}, &capped{}
	for _, p := range ix.Problems {
		if p.Severity == testdex.SevError {
			fmt.Fprintln(stderr, "testdex: "+p.String())
		}
	}
	text := &report.Text{W: stdout}
	limit := timeout(in.Timeout)
	o := run.Options{Timeout: limit, Jobs: c.Jobs, Env: c.Environ, Coverage: in.Coverage}
	prog := progressFor(ctx, req, 0)
	o.Live, o.Planned = prog.live(), prog.planned()
	var warnings []string
	sum, err := ws.Run(ctx, ix, run.Request{IDs: in.IDs, Paths: paths, Options: o,
		Warn: func(msg string) {
			warnings = append(warnings, msg)
			fmt.Fprintln(stderr, "testdex: warning: "+msg)
		}}, text)
	cancelled := errors.Is(err, context.Canceled) && sum != nil
	if err != nil && !cancelled {
		return nil, RunOutput{}, selectionError(err)
	}
	report.Summary(stdout, sum, limit)
	if cancelled {
		out := RunOutput{Exit: ExitCancelled, Cancelled: true, Passed: sum.Passed, Failed: sum.Failed, Skipped: sum.Skipped,
			Unreported: sum.Unreported, Errors: len(sum.Errors), Warnings: warnings, Results: results(sum), Inner: sum.Inner}
		fmt.Fprintln(stdout, "cancelled: testdex mcp is stopping; the results are those of the tests that ended")
		return textResult(format(stdout, stderr, false, limit, out.Exit)), out, nil
	}
	if len(sum.Missing) > 0 {
		return nil, RunOutput{}, fmt.Errorf("%s", strings.Join(sum.Missing, "; "))
	}
	out := RunOutput{Exit: run.ExitCode(sum), TimedOut: sum.TimedOut, Passed: sum.Passed, Failed: sum.Failed, Skipped: sum.Skipped,
		Unreported: sum.Unreported, Errors: len(sum.Errors), Warnings: warnings, Results: results(sum), Inner: sum.Inner}
	return textResult(format(stdout, stderr, sum.TimedOut, limit, out.Exit)), out, nil
}

// ExitCancelled is run_tests' exit when the server stopped during the
// run (128 + SIGINT, as a shell reports an interrupted command).
const ExitCancelled = 130

// checkTimeout refuses a timeout outside 0 to run.MaxTimeout seconds
// (negative, NaN, infinite or too large) with the allowed range, rather
// than clamping it silently; 0 is the default.
func checkTimeout(seconds float64) error {
	if math.IsNaN(seconds) || seconds < 0 || seconds > run.MaxTimeout.Seconds() {
		return fmt.Errorf("timeout %g is out of range: give seconds from 0 to %g (0 or none means the default %g)",
			seconds, run.MaxTimeout.Seconds(), run.DefaultTimeout.Seconds())
	}
	return nil
}

// timeout turns the tool's seconds, checked by checkTimeout, into the
// run's limit: 0 is run.DefaultTimeout.
func timeout(seconds float64) time.Duration {
	if seconds <= 0 {
		return run.DefaultTimeout
	}
	return min(time.Duration(seconds*float64(time.Second)), run.MaxTimeout)
}

// selectionError words a selection that matched nothing with the hint an
// agent needs.
func selectionError(err error) error {
	var nm *index.NoMatchError
	switch {
	case errors.As(err, &nm) && nm.ID != "":
		return fmt.Errorf("%w (call discover_tests to see test IDs)", err)
	case errors.As(err, &nm):
		return fmt.Errorf("%w (call discover_tests to see the test files)", err)
	}
	return err
}
