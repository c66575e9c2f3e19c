package mcpserver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/workspace"
)

// DiscoverInput is the discover_tests tool's input. The zero value lists
// the whole root.
type DiscoverInput struct {
	Paths  []string `json:"paths,omitempty" jsonschema:"files or folders to list, relative to the workspace root; none lists the whole root"`
	Filter string   `json:"filter,omitempty" jsonschema:"keep tests whose name matches, with go test -run semantics: one regular expression per /-separated level"`
	// Sources asks for each listed test's text (source.Of), at most
	// maxSources of them.
	Sources bool `json:"sources,omitempty" jsonschema:"also return the source of each listed test (a spec's text, a code test's function), for the first 200 tests; narrow with paths or filter"`
}

// DiscoverOutput is the discover_tests tool's structured result: the
// records exactly as 'testdex list --json' writes them.
type DiscoverOutput struct {
	Tests []testdex.Test `json:"tests" jsonschema:"the test records; id is the handle run_tests takes"`
	// Problems are per-file diagnostics (a file that does not parse); the
	// listing is complete apart from them.
	Problems []testdex.Problem `json:"problems,omitempty" jsonschema:"files that could not be read completely"`
	// Sources are the tests' texts, when asked for.
	Sources []workspace.Source `json:"sources,omitempty" jsonschema:"with sources: each test's text (file, start and end lines, extent: spec, function or window)"`
	// Total counts the tests listed; Tests holds the first of them when
	// the budget cut the answer, and Whole names the whole answer.
	Total int    `json:"total" jsonschema:"the number of tests listed; tests holds them all, or the first of them when the answer was cut to the budget"`
	Whole string `json:"whole,omitempty" jsonschema:"when the answer was cut to the budget: the resource with every record (or narrow with paths or filter)"`
}

// maxSources bounds the sources discover_tests returns, and
// maxSourceBytes each one's text.
const (
	maxSources     = 200
	maxSourceBytes = 16 << 10
)

// sources reads the listed tests' texts: the first maxSources, each cut
// at maxSourceBytes. A test without one (a dynamic row) is left out.
func sources(ix *workspace.Index, tests []testdex.Test) []workspace.Source {
	out := []workspace.Source{}
	for _, t := range tests {
		if len(out) == maxSources {
			break
		}
		s, err := workspace.SourceOf(ix, t)
		if err != nil {
			continue
		}
		if len(s.Text) > maxSourceBytes {
			s.Text = s.Text[:maxSourceBytes] + "\n[... cut at 16 KiB: testdex show " + t.ID + " prints it whole]\n"
		}
		out = append(out, *s)
	}
	return out
}

func addDiscover(s *mcp.Server, c Config) {
	mcp.AddTool(s, &mcp.Tool{
		Name: "discover_tests",
		Description: "List the tests of the workspace root without running them: every framework's tests, subtests, " +
			"table rows and specs, with their IDs (FILE::NAME), file, line, kind and tags. The text gives the counts " +
			"and the first 200 IDs; the structured result the records, and with sources each test's text " +
			"(what a spec asks, a test's function). The answer stays within a budget: a large listing keeps its first " +
			"records, and 'whole' names the resource with all of them (or narrow with paths or filter).",
		InputSchema: inputSchema[DiscoverInput](),
	}, c.discover)
}

// discover adapts index.Build, index.Under and Index.Select.
func (c Config) discover(ctx context.Context, _ *mcp.CallToolRequest, in DiscoverInput) (*mcp.CallToolResult, DiscoverOutput, error) {
	_, ix, paths, err := c.load(ctx, in.Paths)
	if err != nil {
		return nil, DiscoverOutput{}, err
	}
	tests, err := ix.Select(workspace.Filter{Name: in.Filter})
	if err != nil {
		return nil, DiscoverOutput{}, fmt.Errorf("%w (the filter is a go test -run pattern: one regular expression per /-separated level)", err)
	}
	out := DiscoverOutput{Tests: workspace.Under(tests, paths), Problems: ix.Problems}
	if out.Tests == nil {
		out.Tests = []testdex.Test{}
	}
	out.Total = len(out.Tests)
	if in.Sources {
		out.Sources = sources(ix, out.Tests)
	}
	res, cut := fitAnswer(c, out, func(step int, whole string) (string, DiscoverOutput, bool) {
		n, last := halving(step)
		if step == 0 {
			return summarize(out, out, ""), out, false
		}
		part := out
		part.Tests, part.Sources, part.Problems, part.Whole = head(out.Tests, n), head(out.Sources, n), head(out.Problems, n), whole
		return summarize(out, part, whole), part, last
	})
	return res, cut, nil
}

// maxTextIDs bounds the IDs in discover_tests' text, which an agent reads
// whole; the structured result has them all.
const maxTextIDs = 200

// summarize is the text beside the records: the counts of the whole
// listing; the IDs of the part shown, at most maxTextIDs, one a line
// (quoted when they hold control characters), with a line saying how
// many more there are and how to narrow the listing (or read whole,
// when the answer was cut); then the problems shown.
func summarize(full, part DiscoverOutput, whole string) string {
	files := map[string]bool{}
	var subtests, skipped int
	for _, t := range full.Tests {
		files[t.File] = true
		if t.Parent != "" {
			subtests++
		}
		if t.Skip {
			skipped++
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d tests (%d nested), %d skipped, in %d files", len(full.Tests), subtests, skipped, len(files))
	shown := head(part.Tests, maxTextIDs)
	for _, t := range shown {
		b.WriteString("\n" + textID(t.ID))
	}
	if more := len(full.Tests) - len(shown); more > 0 {
		fmt.Fprintf(&b, "\n... and %d more (narrow with paths or filter", more)
		if whole != "" {
			b.WriteString(", or read " + whole)
		} else {
			b.WriteString(", or read the structured result")
		}
		b.WriteString(")")
	}
	if len(full.Problems) > 0 {
		fmt.Fprintf(&b, "\n%d problems:", len(full.Problems))
		for _, p := range part.Problems {
			b.WriteString("\n" + p.String())
		}
		if more := len(full.Problems) - len(part.Problems); more > 0 {
			fmt.Fprintf(&b, "\n... and %d more problems: %s", more, whole)
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
