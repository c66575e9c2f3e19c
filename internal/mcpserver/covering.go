package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/workspace"
)

// CoveringInput is the tests_covering tool's input (seed 004's name).
type CoveringInput struct {
	File    string `json:"file" jsonschema:"the source file, relative to the workspace root"`
	Line    int    `json:"line,omitempty" jsonschema:"the line, 1-based; 0 or none asks about any line of the file"`
	EndLine int    `json:"end_line,omitempty" jsonschema:"with line: the last line of a range; 0 or none means line alone"`
}

// CoveringOutput is the tests_covering tool's structured result.
type CoveringOutput struct {
	// Recorded is false when no coverage was recorded for the root yet.
	Recorded bool              `json:"recorded" jsonschema:"whether coverage was recorded for the workspace root; false means run_tests with coverage first, not 'no test covers it'"`
	Tests    []workspace.Hit   `json:"tests" jsonschema:"the tests that executed the lines, with when that was recorded and the outcome then; by is line (file unchanged) or function (the file changed, the function's hash did not)"`
	Stale    []workspace.Stale `json:"stale" jsonschema:"tests recorded on an older version of the file that cannot be matched to the lines: they may or may not execute them now"`
	// Unrecorded are the batches of the file's project whose last run
	// with coverage recorded nothing, when the index holds no record of
	// the file.
	Unrecorded []workspace.Gap `json:"unrecorded,omitempty" jsonschema:"when nothing is recorded for the file: the batches (project and framework) of its project whose last run with coverage recorded nothing, with the reason (coverage missing there, not 'no test executes it')"`
	// MoreTests and MoreStale count what the budget left out; Whole
	// names the whole answer then.
	MoreTests int    `json:"more_tests,omitempty" jsonschema:"tests left out to stay within the budget"`
	MoreStale int    `json:"more_stale,omitempty" jsonschema:"stale recordings left out to stay within the budget"`
	Whole     string `json:"whole,omitempty" jsonschema:"when the answer was cut to the budget: the resource with all of it"`
}

func addCovering(s *mcp.Server, c Config) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "tests_covering",
		Description: "The tests that executed a line of a source file (or any line of it), as the last runs with coverage " +
			"recorded them, each with when and its outcome then. A file edited since is answered through its functions " +
			"whose hash did not change; other recordings are listed as stale. Record with run_tests and coverage: true.",
		InputSchema: inputSchema[CoveringInput](),
	}, c.covering)
}

// covering adapts workspace.Covering.
func (c Config) covering(ctx context.Context, _ *mcp.CallToolRequest, in CoveringInput) (*mcp.CallToolResult, CoveringOutput, error) {
	out := CoveringOutput{Tests: []workspace.Hit{}, Stale: []workspace.Stale{}}
	switch {
	case in.File == "":
		return nil, out, errors.New("file is required")
	case in.Line < 0 || in.EndLine < 0 || in.EndLine > 0 && (in.Line == 0 || in.EndLine < in.Line):
		return nil, out, fmt.Errorf("line %d, end_line %d: want 1 <= line <= end_line", in.Line, in.EndLine)
	}
	ws, ix, _, err := c.load(ctx, nil)
	if err != nil {
		return nil, out, err
	}
	ans, err := ws.Covering(ix, workspace.CoveringRequest{File: in.File, Start: in.Line, End: in.EndLine})
	var gap *workspace.GapError
	var outside *workspace.OutsideError
	switch {
	case errors.As(err, &outside):
		return nil, out, fmt.Errorf("%s is outside the workspace root %s", outside.Path, outside.Root)
	case errors.As(err, &gap):
		out.Unrecorded = gap.Gaps
		return textResult(gap.Error()), out, nil
	case errors.Is(err, workspace.ErrNoCoverage), errors.Is(err, workspace.ErrCoverageDamaged):
		return textResult("no coverage recorded for this workspace root (call run_tests with coverage: true first)"), out, nil
	case err != nil:
		return nil, out, err
	}
	out.Recorded, out.Tests, out.Stale = true, ans.Tests, ans.Stale
	answer, cut := fitAnswer(c, out, func(step int, whole string) (string, CoveringOutput, bool) {
		n, last := halving(step)
		part := out
		part.Tests, part.Stale = head(out.Tests, n), head(out.Stale, n)
		part.MoreTests, part.MoreStale = len(out.Tests)-len(part.Tests), len(out.Stale)-len(part.Stale)
		if step > 0 {
			part.Whole = whole
		}
		return coveringText(part), part, last
	})
	return answer, cut, nil
}

// coveringText is one line per test, then the stale ones, then a count.
func coveringText(a CoveringOutput) string {
	var b strings.Builder
	for _, h := range a.Tests {
		fmt.Fprintf(&b, "%s  %s  recorded %s  lines %s", textID(h.ID), h.Outcome, h.Recorded.UTC().Format("2006-01-02T15:04:05Z"), workspace.Spans(h.Lines))
		if h.By == "function" {
			fmt.Fprintf(&b, "  (by function hash: %s unchanged; the file changed since)", strings.Join(h.Functions, ", "))
		}
		if h.Granularity == "file" {
			b.WriteString("  (recorded per test file: its file's tests share these lines)")
		}
		b.WriteByte('\n')
	}
	for _, s := range a.Stale {
		fmt.Fprintf(&b, "stale: %s  %s  recorded %s: %s\n", textID(s.ID), s.Outcome, s.Recorded.UTC().Format("2006-01-02T15:04:05Z"), s.Reason)
	}
	if a.MoreTests+a.MoreStale > 0 {
		fmt.Fprintf(&b, "... and %d more tests, %d more stale: %s\n", a.MoreTests, a.MoreStale, a.Whole)
	}
	fmt.Fprintf(&b, "%d tests executed it", len(a.Tests)+a.MoreTests)
	if n := len(a.Stale) + a.MoreStale; n > 0 {
		fmt.Fprintf(&b, ", %d stale", n)
	}
	return b.String()
}
