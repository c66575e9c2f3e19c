package mcpserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

// runAnswer is a run's answer before it is cut to the budget.
type runAnswer struct {
	in             RunInput
	sum            *workspace.Summary
	limit          time.Duration
	warnings       []string
	stdout, stderr *capped
	k              *kept
	budget         int
	cancelled      bool
	// failedStore is true when the failures are kept per root, so that
	// scope "failed" can rerun them.
	failedStore bool
	// verdicts are the history's verdicts on the failures, by ID.
	verdicts map[string]string
}

// answer keeps the run whole in st and returns the answer cut to the
// budget.
func (a *runAnswer) answer(st *store) (*mcp.CallToolResult, RunOutput, error) {
	full := a.output()
	a.k.text = a.fullText(full)
	a.k.full, _ = json.Marshal(full)
	st.add(a.k)
	res, out, _ := fit(a.budget, a.render(full))
	return res, out, nil
}

// output is the whole structured result.
func (a *runAnswer) output() RunOutput {
	s := a.sum
	out := RunOutput{Exit: workspace.ExitCode(s), TimedOut: s.TimedOut, Passed: s.Passed, Failed: s.Failed, Skipped: s.Skipped, Flaky: s.Flaky,
		Unreported: s.Unreported, Errors: len(s.Errors), Warnings: a.warnings, Run: a.k.id, Failures: []Failure{}, Results: results(s), Inner: s.Inner}
	if a.cancelled {
		out.Exit, out.Cancelled, out.TimedOut = ExitCancelled, true, false
	}
	for _, f := range s.Failures {
		out.Failures = append(out.Failures, Failure{ID: f.ID, Occurrence: f.Occurrence, File: f.File, Line: f.Line, Message: f.Message, Verdict: a.verdicts[f.ID]})
	}
	out.Rerun = a.rerun(out.Failures)
	for _, f := range s.Quarantined {
		out.Failures = append(out.Failures, Failure{ID: f.ID, Occurrence: f.Occurrence, File: f.File, Line: f.Line, Message: f.Message, Verdict: a.verdicts[f.ID], Quarantined: true})
	}
	return out
}

// rerun is the call that reruns exactly the failures (rerunCall). After
// batch errors alone (a build that failed) it is the same selection
// again; with nothing failed, nil.
func (a *runAnswer) rerun(fs []Failure) *RunInput {
	if len(fs) == 0 {
		if len(a.sum.Errors) == 0 || a.cancelled {
			return nil
		}
		again := a.in
		again.Raw = false
		return &again
	}
	return rerunCall(fs, RunInput{Timeout: a.in.Timeout, Coverage: a.in.Coverage}, a.budget, a.failedStore)
}

// rerunCall is the run_tests call that reruns exactly the failures fs
// with base's options: their IDs, each once; or, when the IDs would take
// more than a quarter of the budget and the failures are kept per root,
// scope "failed", which reruns the same failures from the store.
func rerunCall(fs []Failure, base RunInput, budget int, failedStore bool) *RunInput {
	r := base
	r.IDs = []string{}
	seen := map[string]bool{}
	for _, f := range fs {
		if !seen[f.ID] {
			seen[f.ID] = true
			r.IDs = append(r.IDs, f.ID)
		}
	}
	if failedStore && len(callJSON(r)) > budget/4 {
		r.IDs, r.Scope = nil, scopeFailed
	}
	return &r
}

// callJSON is a call's arguments as JSON, non-ASCII and <>& as they are.
func callJSON(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v) // plain structs: it cannot fail
	return strings.TrimSuffix(b.String(), "\n")
}

// render gives the answer at each step: whole; without the results; then
// the compact text of counts and failures, cut by stepLimits.
func (a *runAnswer) render(full RunOutput) render[RunOutput] {
	return func(step int) (string, RunOutput, bool) {
		out, last := full, false
		var text string
		switch step {
		case 0:
			if jsonSize(full.Results) > a.budget/resultsShare {
				out.Results, out.ResultsOmitted = []TestResult{}, len(full.Results)
			}
			text = a.fullText(out)
		case 1:
			out.Results, out.ResultsOmitted = []TestResult{}, len(full.Results)
			text = a.fullText(out)
		default:
			var l limits
			l, last = stepLimits(step - 1)
			out.Results, out.ResultsOmitted = []TestResult{}, len(full.Results)
			n := l.keep(len(full.Failures))
			out.Failures, out.MoreFailures = make([]Failure, n), len(full.Failures)-n
			for i, f := range full.Failures[:n] {
				f.Message = cutMessage(f.Message, l.frames, l.bytes)
				out.Failures[i] = f
			}
			if w := l.keep(len(full.Warnings)); w < len(full.Warnings) {
				out.Warnings = full.Warnings[:w]
			}
			out.Inner, out.InnerErrorsOmitted = cutInner(full.Inner, l)
			text = a.compactText(out, l)
		}
		if a.in.Raw {
			text = a.withRaw(text, out)
		}
		return text, out, last
	}
}

// fullText is the run's whole text in seed 004's form: testdex's report,
// the rerun call and the resources, a "--- stderr ---" section when
// stderr is not empty, "timed out after Ns" on a timeout, and "exit: N".
func (a *runAnswer) fullText(out RunOutput) string {
	return a.stdout.String() + a.notes(out) + a.closing(a.stderr.String(), out)
}

// closing is the stderr section, the timeout and the exit line.
func (a *runAnswer) closing(stderr string, out RunOutput) string {
	var b strings.Builder
	if stderr != "" {
		b.WriteString("--- stderr ---\n" + stderr)
		if !strings.HasSuffix(stderr, "\n") {
			b.WriteString("\n")
		}
	}
	if out.TimedOut {
		fmt.Fprintf(&b, "timed out after %ds\n", int(a.limit.Seconds()))
	}
	fmt.Fprintf(&b, "exit: %d\n", out.Exit)
	return b.String()
}

// notes are the lines that point further: the rerun call, the failures
// left out, the resources of the whole run.
func (a *runAnswer) notes(out RunOutput) string {
	var b strings.Builder
	if out.MoreFailures > 0 {
		fmt.Fprintf(&b, "... and %d more failures: testdex://runs/%d/results has them all\n", out.MoreFailures, out.Run)
	}
	if out.Rerun != nil {
		b.WriteString("rerun: run_tests " + callJSON(out.Rerun) + "\n")
	}
	fmt.Fprintf(&b, "whole run: testdex://runs/%d/output, /results, /events, /raw\n", out.Run)
	return b.String()
}

// compactText is the text of a cut answer: the counts, each failure kept
// with its location and cut message, each batch error, the stderr cut,
// then the notes and the closing lines.
func (a *runAnswer) compactText(out RunOutput, l limits) string {
	var b strings.Builder
	report.Summary(&b, a.sum, a.limit)
	for _, f := range out.Failures {
		loc := f.File
		if f.Line > 0 {
			loc = fmt.Sprintf("%s:%d", f.File, f.Line)
		}
		fmt.Fprintf(&b, "FAIL %s  %s\n", textID(f.ID), loc)
		if f.Message != "" {
			b.WriteString("    " + strings.ReplaceAll(f.Message, "\n", "\n    ") + "\n")
		}
	}
	errs := a.sum.Errors
	for _, e := range errs[:l.keep(len(errs))] {
		fmt.Fprintf(&b, "batch error: %s (%s)\n    %s\n", e.Batch, e.Cause, strings.ReplaceAll(cutMessage(e.Message, l.frames, l.bytes), "\n", "\n    "))
	}
	if n := len(errs) - l.keep(len(errs)); n > 0 {
		fmt.Fprintf(&b, "... and %d more batch errors: testdex://runs/%d/output\n", n, out.Run)
	}
	if a.cancelled {
		b.WriteString("cancelled: testdex mcp is stopping; the results are those of the tests that ended\n")
	}
	stderr := a.stderr.String()
	if cut := cutMessage(stderr, l.frames, l.bytes); cut != strings.TrimRight(stderr, "\n") {
		stderr = cut + "\n"
	}
	return b.String() + a.notes(out) + a.closing(stderr, out)
}

// withRaw appends the runners' raw output to text, cut to what the
// budget leaves.
func (a *runAnswer) withRaw(text string, out RunOutput) string {
	head := fmt.Sprintf("--- raw runner output (whole: testdex://runs/%d/raw) ---\n", out.Run)
	a.k.partsMu.Lock()
	raw := a.k.raw.String()
	a.k.partsMu.Unlock()
	room := a.budget - size(text+head, out) - len(cutMark)
	if room <= 0 {
		return text + head + "[no room left in the answer budget: read the resource]\n"
	}
	if r := cutJSON(raw, room); len(r) < len(raw) {
		return text + head + r + cutMark
	}
	return text + head + raw
}

// resultsShare bounds every test's result in a whole answer: they go in
// while they take at most this share of the budget (a rerun's few
// tests), else results_omitted counts them and the resource has them. A
// suite's passing tests are what the counts already say.
const resultsShare = 8

// jsonSize is the bytes of v marshalled.
func jsonSize(v any) int {
	data, _ := json.Marshal(v)
	return len(data)
}

// cutInner is the tests' own checks cut to l: their counts whole, the
// errors kept and each cut as a failure message is; omitted counts the
// errors left out. It copies: in belongs to the whole answer.
func cutInner(in *testdex.Inner, l limits) (out *testdex.Inner, omitted int) {
	if in == nil {
		return nil, 0
	}
	c := *in
	n := l.keep(len(in.Errors))
	c.Errors = make([]string, n)
	for i, e := range in.Errors[:n] {
		c.Errors[i] = cutMessage(e, l.frames, l.bytes)
	}
	if n == 0 {
		c.Errors = nil
	}
	return &c, len(in.Errors) - n
}

// results are each test's final result in the order the tests ended,
// their times to the millisecond (a runner's nanoseconds are digits an
// agent reads for nothing).
func results(sum *workspace.Summary) []TestResult {
	out := []TestResult{}
	for _, e := range sum.Results() {
		out = append(out, TestResult{ID: e.ID, Action: e.Action, Occurrence: e.Occurrence, Elapsed: math.Round(e.Elapsed*1000) / 1000, Message: e.Message, File: e.File, Line: e.Line, Inner: e.Inner})
	}
	return out
}
