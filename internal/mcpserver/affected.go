package mcpserver

import (
	"context"
	"errors"
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
	var b strings.Builder
	for _, a := range affected {
		f := AffectedFile{File: a.File, Reason: a.Reason.String(), All: a.Whole(), IDs: []string{}, RunIDs: []string{}}
		for _, t := range a.Tests {
			f.IDs = append(f.IDs, t.ID)
		}
		for _, i := range a.Top() {
			f.RunIDs = append(f.RunIDs, a.Tests[i].ID)
		}
		out.Files = append(out.Files, f)
		for _, line := range a.Lines() {
			b.WriteString(line + "\n")
		}
	}
	b.WriteString(workspace.AffectedSummary(set, affected))
	if note != "" {
		b.WriteString("\n" + note)
	}
	return textResult(b.String()), out, nil
}
