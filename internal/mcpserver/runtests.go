package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

// RunInput is the run_tests tool's input. It must select: ids, paths, or
// a scope; nothing at all is a usage error, so that no call runs the
// whole suite by accident.
type RunInput struct {
	IDs      []string `json:"ids,omitempty" jsonschema:"test IDs as discover_tests gives them (FILE::NAME); each runs with its subtests"`
	Paths    []string `json:"paths,omitempty" jsonschema:"files or folders whose tests run, relative to the workspace root"`
	Scope    string   `json:"scope,omitempty" jsonschema:"instead of ids and paths: affected (the tests the work tree's change can affect, against since or HEAD), failed (the failures of the last run), all (the whole suite)"`
	Since    string   `json:"since,omitempty" jsonschema:"with scope affected: the git revision the work tree is compared with; default HEAD"`
	Timeout  float64  `json:"timeout,omitempty" jsonschema:"limit for the whole run in seconds, more than 0 and at most 1800; 0 or none means the default 300"`
	Coverage bool     `json:"coverage,omitempty" jsonschema:"also record what each test executes, for tests_covering (Go: each top-level test in its own process)"`
	Retries  int      `json:"retries,omitempty" jsonschema:"rerun the failed tests alone, by ID, up to this many times (0 to 10); one that then passes is flaky (counted in flaky, not a failure)"`
	Raw      bool     `json:"raw,omitempty" jsonschema:"also append the native runners' raw standard output (go test -json's events, pytest's report...) to the text, cut to what the answer budget leaves; the whole is the resource testdex://runs/{run}/raw"`
}

// The scopes run_tests takes.
const (
	scopeAll      = "all"
	scopeAffected = "affected"
	scopeFailed   = "failed"
)

// RunOutput is the run_tests tool's structured result, cut to the
// server's answer budget: the counts and the run's number always, then
// the failures, then every result while they fit.
type RunOutput struct {
	// Exit is 0 when every selected test passed or was skipped, 1 when one
	// failed, 124 when the run timed out (seed 004's codes).
	Exit     int  `json:"exit" jsonschema:"0 all passed, 1 a test failed, 2 an ID named no test the runner ran, 124 the run timed out, 130 the run was cancelled (the server is stopping)"`
	TimedOut bool `json:"timed_out"`
	// Cancelled is true when the server stopped (SIGTERM) during the run.
	Cancelled bool `json:"cancelled,omitempty"`
	Passed    int  `json:"passed"`
	Failed    int  `json:"failed"`
	Skipped   int  `json:"skipped"`
	// Flaky counts the tests that failed and passed on a rerun (retries).
	Flaky int `json:"flaky,omitempty" jsonschema:"tests that failed and then passed when rerun (retries): not failures"`
	// Unreported counts listed tests the runner never reported; Errors the
	// batches whose runner failed without per-test results.
	Unreported int `json:"unreported"`
	Errors     int `json:"errors"`
	// Warnings are the run's warnings, as the text's stderr part has them
	// (a batch whose coverage recorded nothing, with the reason).
	Warnings []string `json:"warnings,omitempty" jsonschema:"the run's warnings, such as a project whose coverage recorded nothing and why; they fail nothing"`
	// Run numbers the run for its resources; 0 when nothing ran.
	Run int `json:"run,omitempty" jsonschema:"the run's number: testdex://runs/{run}/output, /results, /events and /raw give its whole text, every result, its event stream and the runners' raw output"`
	// Failures are the failed tests, as last_test_failures gives them.
	Failures []Failure `json:"failures" jsonschema:"the failed tests in the order they failed (a parent that failed only through a subtest is left to the subtest), with file, line and message; cut to the budget, with more_failures counting the rest"`
	// MoreFailures counts the failures the budget left out.
	MoreFailures int `json:"more_failures,omitempty" jsonschema:"failures left out to stay within the budget: read testdex://runs/{run}/results"`
	// Rerun is the call that reruns exactly the failures.
	Rerun *RunInput `json:"rerun,omitempty" jsonschema:"the run_tests arguments that rerun exactly the failed tests (or, after batch errors alone, the same selection)"`
	// Results hold each test's final result, in the order they ended,
	// when they take at most an eighth of the budget.
	Results []TestResult `json:"results" jsonschema:"each test's final result in the order the tests ended, when they take at most an eighth of the budget (a rerun's few tests); else empty, and results_omitted counts them (read testdex://runs/{run}/results)"`
	// ResultsOmitted counts the results the budget left out.
	ResultsOmitted int `json:"results_omitted,omitempty"`
	// Inner sums the checks the tests counted inside themselves (the
	// seed's totalPassed, totalFailed and errors), nil when none did.
	Inner *testdex.Inner `json:"inner,omitempty" jsonschema:"the sum of the checks the tests counted inside themselves, errors flattened; absent when no test counts its checks"`
	// InnerErrorsOmitted counts the inner errors the budget left out.
	InnerErrorsOmitted int `json:"inner_errors_omitted,omitempty" jsonschema:"inner errors left out to stay within the budget: read testdex://runs/{run}/results"`
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
			"under its ID. Select with ids or paths, or scope: affected (what the work tree's change can affect), failed " +
			"(the last run's failures) or all (the whole suite, only when asked for); nothing selected is an error. " +
			"The answer stays within a budget (about 2,000 tokens): the counts, the failures with file:line and message, " +
			"'rerun:' with the exact run_tests arguments that rerun the failures, and 'exit: N' (0 passed, 1 a test failed, " +
			"124 timed out); the whole output, every result, the event stream and the runners' raw output are the resources " +
			"testdex://runs/{run}/output, /results, /events and /raw. Failing tests are a normal result, not an error.",
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
	if err := checkScope(in); err != nil {
		return nil, RunOutput{}, err
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	if c.stopping != nil {
		defer context.AfterFunc(c.stopping, cancel)() // the server is stopping: end the run, answer with what ran
	}
	return c.runTests(ctx, req, in)
}

// checkScope refuses a call that selects nothing (it would run the whole
// suite), an unknown scope, and a scope beside ids or paths.
func checkScope(in RunInput) error {
	named := len(in.IDs)+len(in.Paths) > 0
	switch {
	case in.Scope == "" && !named:
		return errors.New(`run_tests needs a selection: ids or paths (discover_tests lists them), or scope: "affected" (the tests ` +
			`your change can affect), "failed" (the last run's failures) or "all" (the whole suite)`)
	case in.Scope != "" && in.Scope != scopeAll && in.Scope != scopeAffected && in.Scope != scopeFailed:
		return fmt.Errorf(`scope %q is unknown: give "affected", "failed" or "all"`, in.Scope)
	case in.Scope != "" && named:
		return fmt.Errorf("scope %q selects the tests itself: give ids and paths, or a scope, not both", in.Scope)
	case in.Since != "" && in.Scope != scopeAffected:
		return errors.New(`since goes with scope: "affected"`)
	}
	return nil
}

// runTests adapts workspace.Run as 'testdex run' calls it: the same
// selection, the same text view, the failures saved for
// last_test_failures and 'testdex run --failed'. The run is kept for its
// resources, and the answer cut to the budget.
func (c Config) runTests(ctx context.Context, req *mcp.CallToolRequest, in RunInput) (*mcp.CallToolResult, RunOutput, error) {
	ws, ix, paths, err := c.load(ctx, in.Paths)
	if err != nil {
		return nil, RunOutput{}, err
	}
	ids, chosen := in.IDs, false
	if in.Scope == scopeAffected {
		res, err := ws.Affected(ctx, ix, workspace.AffectedRequest{Since: in.Since})
		if err != nil {
			return nil, RunOutput{}, err
		}
		if len(res.Affected) == 0 {
			return textResult(workspace.AffectedSummary(res.Set, res.Affected) + ": nothing ran\nexit: 0\n"), RunOutput{Failures: []Failure{}, Results: []TestResult{}}, nil
		}
		ids, paths = workspace.Selection(res.Affected)
		chosen = true
	}
	stdout, stderr := &capped{}, &capped{}
	for _, p := range ix.Problems {
		if p.Severity == testdex.SevError {
			fmt.Fprintln(stderr, "testdex: "+p.String())
		}
	}
	k := &kept{run: true, id: c.runs.reserve(), events: &capped{max: maxKept}, raw: &capped{max: maxKept}}
	limit := timeout(in.Timeout)
	o := workspace.RunOptions{Timeout: limit, Jobs: c.Jobs, Env: c.Environ, Coverage: in.Coverage, Raw: k.addRaw}
	prog := progressFor(ctx, req, 0)
	o.Live, o.Planned = prog.live(), prog.planned()
	var warnings []string
	if in.Retries < 0 || in.Retries > 10 {
		return nil, RunOutput{}, fmt.Errorf("retries %d is out of range (0 to 10)", in.Retries)
	}
	sum, err := ws.Run(ctx, ix, workspace.Request{IDs: ids, Paths: paths, Failed: in.Scope == scopeFailed, Chosen: chosen, Options: o, Retries: in.Retries,
		Warn: func(msg string) {
			warnings = append(warnings, msg)
			fmt.Fprintln(stderr, "testdex: warning: "+msg)
		}}, workspace.MultiHandler(&report.Text{W: stdout}, k.eventSink()))
	cancelled := errors.Is(err, context.Canceled) && sum != nil
	if err != nil && !cancelled {
		return nil, RunOutput{}, selectionError(err)
	}
	report.Summary(stdout, sum, limit)
	if cancelled {
		fmt.Fprintln(stdout, "cancelled: testdex mcp is stopping; the results are those of the tests that ended")
	} else if len(sum.Missing) > 0 {
		return nil, RunOutput{}, fmt.Errorf("%s", strings.Join(sum.Missing, "; "))
	}
	a := &runAnswer{in: in, sum: sum, limit: limit, warnings: warnings, stdout: stdout, stderr: stderr, k: k, budget: c.budget(), failedStore: c.CacheDir != "",
		verdicts: ws.FailureVerdicts(slices.Concat(sum.Failures, sum.Quarantined), "")}
	a.cancelled = cancelled
	return a.answer(c.runs)
}

// ExitCancelled is run_tests' exit when the server stopped during the
// run (128 + SIGINT, as a shell reports an interrupted command).
const ExitCancelled = 130

// checkTimeout refuses a timeout outside 0 to workspace.MaxTimeout seconds
// (negative, NaN, infinite or too large) with the allowed range, rather
// than clamping it silently; 0 is the default.
func checkTimeout(seconds float64) error {
	if math.IsNaN(seconds) || seconds < 0 || seconds > workspace.MaxTimeout.Seconds() {
		return fmt.Errorf("timeout %g is out of range: give seconds from 0 to %g (0 or none means the default %g)",
			seconds, workspace.MaxTimeout.Seconds(), workspace.DefaultTimeout.Seconds())
	}
	return nil
}

// timeout turns the tool's seconds, checked by checkTimeout, into the
// run's limit: 0 is workspace.DefaultTimeout.
func timeout(seconds float64) time.Duration {
	if seconds <= 0 {
		return workspace.DefaultTimeout
	}
	return min(time.Duration(seconds*float64(time.Second)), workspace.MaxTimeout)
}

// selectionError words a selection that matched nothing with the hint an
// agent needs.
func selectionError(err error) error {
	var nm *workspace.NoMatchError
	switch {
	case errors.As(err, &nm) && nm.ID != "":
		return fmt.Errorf("%w (call discover_tests to see test IDs)", err)
	case errors.As(err, &nm):
		return fmt.Errorf("%w (call discover_tests to see the test files)", err)
	}
	return err
}
