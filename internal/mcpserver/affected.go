package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/workspace"
)

// AffectedInput is the affected_tests tool's input. The zero value asks
// about the work tree against HEAD.
type AffectedInput struct {
	Since string   `json:"since,omitempty" jsonschema:"the git revision the work tree is compared with; default HEAD (origin/main for a branch)"`
	Files []string `json:"files,omitempty" jsonschema:"the changed files, relative to the workspace root, instead of asking git"`
}

// AffectedOutput is the affected_tests tool's structured result.
type AffectedOutput struct {
	// Changed are the changed files the selection started from.
	Changed []workspace.Change `json:"changed" jsonschema:"the changed files"`
	// Files are the affected test files, each with its reason and the
	// selected tests' IDs.
	Files []AffectedFile `json:"files" jsonschema:"the affected test files with their reasons and selected test IDs"`
	// Note says why recorded coverage could not be used, when there was
	// some (a damaged or busy index): the static evidence decided.
	Note string `json:"note,omitempty" jsonschema:"why recorded coverage was not used (the static evidence decided)"`
	// MoreFiles and MoreChanged count what the budget left out; Whole
	// names the whole answer then.
	MoreFiles   int    `json:"more_files,omitempty" jsonschema:"affected test files left out to stay within the budget"`
	MoreChanged int    `json:"more_changed,omitempty" jsonschema:"changed files left out to stay within the budget"`
	Whole       string `json:"whole,omitempty" jsonschema:"when the answer was cut to the budget: the resource with all of it"`
	// Run is the run_tests call that runs exactly the affected tests.
	Run *RunInput `json:"run,omitempty" jsonschema:"the run_tests arguments that run exactly these tests"`
}

// AffectedFile is one affected test file: all its tests, or, when the
// evidence names the tests the change reaches (Go at function level),
// some of them.
type AffectedFile struct {
	File   string `json:"file"`
	Reason string `json:"reason" jsonschema:"why: the chain of uses from the test file (or its first selected test) to the changed file"`
	// All is true when every test of the file is selected.
	All bool `json:"all" jsonschema:"every test of the file is selected: pass the file to run_tests as a path; else pass run_ids"`
	// IDs are the selected records, subtests included.
	IDs []string `json:"ids" jsonschema:"the selected test IDs, subtests included (listed statically)"`
	// RunIDs are the selected tests whose parent is not selected: passed
	// to run_tests as ids, they run exactly the selection.
	RunIDs []string `json:"run_ids" jsonschema:"the IDs to pass to run_tests to run exactly the selected tests of the file"`
}

func addAffected(s *mcp.Server, c Config) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "affected_tests",
		Description: "The tests a change can affect, without running anything: the work tree (staged, unstaged, untracked, " +
			"deleted, renamed) against 'since' (default HEAD), or the named 'files'. Each test file comes with the reason " +
			"(the chain from the test to the changed file); only some tests of a file when the evidence names them (Go, function level). " +
			"Pass a file whose 'all' is true to run_tests as a path, else its 'run_ids' as ids.",
		InputSchema: inputSchema[AffectedInput](),
	}, c.affected)
}

// affected adapts changes.FromGit / FromFiles, Build and Select.
func (c Config) affected(ctx context.Context, _ *mcp.CallToolRequest, in AffectedInput) (*mcp.CallToolResult, AffectedOutput, error) {
	if in.Since != "" && len(in.Files) > 0 {
		return nil, AffectedOutput{}, errors.New("since and files exclude each other")
	}
	ws, ix, _, err := c.load(ctx, nil)
	if err != nil {
		return nil, AffectedOutput{}, err
	}
	res, err := ws.Affected(ctx, ix, workspace.AffectedRequest{Since: in.Since, Files: in.Files})
	if err != nil {
		return nil, AffectedOutput{}, err
	}
	set, affected := res.Set, res.Affected
	note := strings.Join(res.Notes, "\n")
	out := AffectedOutput{Changed: set, Files: []AffectedFile{}, Note: note}
	if out.Changed == nil {
		out.Changed = workspace.ChangeSet{}
	}
	var lines [][]string
	for _, a := range affected {
		f := AffectedFile{File: a.File, Reason: a.Reason.String(), All: a.Whole(), IDs: []string{}, RunIDs: []string{}}
		for _, t := range a.Tests {
			f.IDs = append(f.IDs, t.ID)
		}
		for _, i := range a.Top() {
			f.RunIDs = append(f.RunIDs, a.Tests[i].ID)
		}
		out.Files = append(out.Files, f)
		lines = append(lines, a.Lines())
	}
	if len(affected) > 0 {
		ids, paths := workspace.Selection(affected)
		out.Run = &RunInput{IDs: ids, Paths: paths}
		switch {
		case len(callJSON(out.Run)) <= c.budget()/4:
		case len(in.Files) == 0:
			out.Run = &RunInput{Scope: scopeAffected, Since: in.Since}
		default:
			out.Run = nil // too long to fit: each file's run_ids, in the whole answer
		}
	}
	summary := workspace.AffectedSummary(set, affected)
	answer, cut := fitAnswer(c, out, func(step int, whole string) (string, AffectedOutput, bool) {
		if step == 0 {
			return affectedText(out, lines, summary), out, false
		}
		n, last := halving(step - 1)
		part := out
		part.Files, part.Changed = make([]AffectedFile, len(head(out.Files, n))), head(out.Changed, n)
		for i, f := range head(out.Files, n) {
			f.IDs = []string{} // run_ids run them; the whole answer has the rest
			part.Files[i] = f
		}
		part.MoreFiles, part.MoreChanged, part.Whole = len(out.Files)-len(part.Files), len(out.Changed)-len(part.Changed), whole
		return affectedText(part, lines, summary), part, last
	})
	return answer, cut, nil
}

// affectedText is the lines of the files shown (a whole file, or each
// selected test with its reason), those left out, the run call, the
// summary and the note.
func affectedText(out AffectedOutput, lines [][]string, summary string) string {
	var b strings.Builder
	for i := range out.Files {
		for _, line := range lines[i] {
			b.WriteString(line + "\n")
		}
	}
	if out.MoreFiles > 0 {
		fmt.Fprintf(&b, "... and %d more test files: %s\n", out.MoreFiles, out.Whole)
	}
	if out.Run != nil {
		b.WriteString("run them: run_tests " + callJSON(out.Run) + "\n")
	}
	b.WriteString(summary)
	if out.Note != "" {
		b.WriteString("\n" + out.Note)
	}
	return b.String()
}
