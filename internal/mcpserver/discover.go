package mcpserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

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
			"table rows and specs, with their IDs (FILE::NAME), file, line, kind and tags. The text gives the counts " +
			"and the first 200 IDs; the structured result has every record.",
		InputSchema: inputSchema[DiscoverInput](),
	}, c.discover)
}

// discover adapts index.Build, index.Under and Index.Select.
func (c Config) discover(ctx context.Context, _ *mcp.CallToolRequest, in DiscoverInput) (*mcp.CallToolResult, DiscoverOutput, error) {
	_, ix, paths, err := c.load(ctx, in.Paths)
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

// maxTextIDs bounds the IDs in discover_tests' text, which an agent reads
// whole; the structured result has them all.
const maxTextIDs = 200

// summarize is the text beside the records: the counts; the first
// maxTextIDs IDs, one a line (quoted when they hold control characters),
// with a line saying how many more there are and how to narrow the
// listing; then the problems.
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
	var b strings.Builder
	fmt.Fprintf(&b, "%d tests (%d nested), %d skipped, in %d files", len(out.Tests), subtests, skipped, len(files))
	for i, t := range out.Tests {
		if i == maxTextIDs {
			fmt.Fprintf(&b, "\n... and %d more (narrow with paths or filter, or read the structured result)", len(out.Tests)-i)
			break
		}
		b.WriteString("\n" + textID(t.ID))
	}
	if len(out.Problems) > 0 {
		fmt.Fprintf(&b, "\n%d problems:", len(out.Problems))
		for _, p := range out.Problems {
			b.WriteString("\n" + p.String())
		}
	}
	return b.String()
}

// textID is id as one line of text: quoted when it holds a control
// character (a newline in a test name would otherwise split it).
func textID(id string) string {
	if strings.ContainsFunc(id, unicode.IsControl) {
		return strconv.Quote(id)
	}
	return id
}

// textResult is a result whose content is text alone; the SDK adds the
// structured output beside it.
func textResult(s string) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: s}}}
}
