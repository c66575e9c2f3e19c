package mcpserver_test

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/mcpserver"
	"github.com/testdex/testdex/internal/testenv"
)

// connect serves root in memory and returns a client session that has
// completed initialize.
func connect(t *testing.T, root, cache string) *mcp.ClientSession {
	t.Helper()
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	srv := mcpserver.New(mcpserver.Config{Root: root, CacheDir: cache, Environ: os.Environ()})
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// goFixture copies testdata/run/go, the Go project whose tests pass, fail
// and skip (and hang, leak or print megabytes when asked), to a temp
// folder.
func goFixture(t *testing.T) string {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		testenv.Missing(t, "go is not installed")
	}
	dir := filepath.Join(t.TempDir(), "go")
	if err := os.CopyFS(dir, os.DirFS("../../testdata/run/go")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// call calls a tool and returns its text and its structured result
// decoded into out (when not nil).
func call(t *testing.T, cs *mcp.ClientSession, tool string, args map[string]any, out any) (string, bool) {
	t.Helper()
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		t.Fatalf("%s: protocol error: %v", tool, err)
	}
	var text strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text.WriteString(tc.Text)
		}
	}
	if out != nil && !res.IsError {
		data, _ := json.Marshal(res.StructuredContent)
		if err := json.Unmarshal(data, out); err != nil {
			t.Fatalf("%s: structured content %s: %v", tool, data, err)
		}
	}
	return text.String(), res.IsError
}

func TestToolsList(t *testing.T) {
	cs := connect(t, t.TempDir(), "")
	if got := cs.InitializeResult().ServerInfo.Name; got != "testdex" {
		t.Errorf("server name %q", got)
	}
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"discover_tests":     {"filter", "paths", "sources"},
		"run_tests":          {"coverage", "ids", "paths", "raw", "retries", "scope", "since", "timeout"},
		"last_test_failures": nil,
		"affected_tests":     {"files", "since"},
		"tests_covering":     {"end_line", "file", "line"},
	}
	if len(res.Tools) != len(want) || len(mcpserver.Tools) != len(want) {
		t.Errorf("%d tools, want %d; Tools names %d", len(res.Tools), len(want), len(mcpserver.Tools))
	}
	for _, name := range mcpserver.Tools {
		if _, ok := want[name]; !ok {
			t.Errorf("Tools names %s, which the server does not serve", name)
		}
	}
	for _, tool := range res.Tools {
		props, ok := want[tool.Name]
		if !ok {
			t.Errorf("unexpected tool %s", tool.Name)
			continue
		}
		var in struct{ Properties map[string]any }
		data, _ := json.Marshal(tool.InputSchema)
		json.Unmarshal(data, &in)
		var got []string
		for p := range in.Properties {
			got = append(got, p)
		}
		slices.Sort(got)
		if !slices.Equal(got, props) {
			t.Errorf("%s input properties %v, want %v", tool.Name, got, props)
		}
		if tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s has no output schema or no description", tool.Name)
		}
	}
}
