package mcpserver

import (
	"context"
	"fmt"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/index"
)

// DiscoverInput is the discover_tests tool's input. The zero value lists
// the whole root.
type DiscoverInput struct {
	Paths  []string `json:"paths,omitempty" jsonschema:"files or folders to list, relative to the workspace root; none lists the whole root"`
	Filter string   `json:"filter,omitempty" jsonschema:"keep tests whose name matches, with go test -run semantics: one regular expression per /-separated level"`
}

// DiscoverOutput is the discover_tests tool's structured result: the
// records exactly as 'testdex list --json' writes them.
type DiscoverOutput struct {
	Tests []testdex.Test `json:"tests" jsonschema:"the test records; id is the handle run_tests takes"`
	// Problems are per-file diagnostics (a file that does not parse); the
	// listing is complete apart from them.
	Problems []testdex.Problem `json:"problems,omitempty" jsonschema:"files that could not be read completely"`
}

func addDiscover(s *mcp.Server, c Config) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "discover_tests",
		Description: "List the tests of the workspace root without running them: every framework's tests, subtests, " +
			"table rows and specs, with their IDs (FILE::NAME), file, line, kind and tags.",
	}, c.discover)
}

// discover adapts index.Build, index.Under and Index.Select.
func (c Config) discover(ctx context.Context, _ *mcp.CallToolRequest, in DiscoverInput) (*mcp.CallToolResult, DiscoverOutput, error) {
	ix, paths, err := c.load(ctx, in.Paths)
	if err != nil {
		return nil, DiscoverOutput{}, err
	}
	tests, err := ix.Select(index.Filter{Name: in.Filter})
	if err != nil {
		return nil, DiscoverOutput{}, fmt.Errorf("%w (the filter is a go test -run pattern: one regular expression per /-separated level)", err)
	}
	out := DiscoverOutput{Tests: index.Under(tests, paths), Problems: ix.Problems}
	if out.Tests == nil {
		out.Tests = []testdex.Test{}
	}
	return textResult(summarize(out)), out, nil
}

// summarize is the short text beside the records: counts by kind and
// file, and the problems.
func summarize(out DiscoverOutput) string {
	files := map[string]bool{}
	var subtests, skipped int
	for _, t := range out.Tests {
		files[t.File] = true
		if t.Parent != "" {
			subtests++
		}
		if t.Skip {
			skipped++
		}
	}
	s := fmt.Sprintf("%d tests (%d nested), %d skipped, in %d files", len(out.Tests), subtests, skipped, len(files))
	if len(out.Problems) > 0 {
		s += fmt.Sprintf("; %d problems:", len(out.Problems))
		for _, p := range out.Problems {
			s += "\n" + p.String()
		}
	}
	return s
}

// textResult is a result whose content is text alone; the SDK adds the
// structured output beside it.
func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
