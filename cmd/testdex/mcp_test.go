package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/cli"
)

// TestMCP drives 'testdex --root DIR mcp' over its stdin and stdout, as an
// agent does: initialize, tools/list, one tool call, then end of input,
// which ends the command with exit 0.
func TestMCP(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(dir+"/go.mod", []byte("module example.com/m\n\ngo 1.22\n"), 0o644)
	os.WriteFile(dir+"/m_test.go", []byte("package m\n\nimport \"testing\"\n\nfunc TestM(t *testing.T) {}\n"), 0o644)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	var stderr bytes.Buffer
	code := make(chan int, 1)
	go func() {
		code <- cli.Main(context.Background(), []string{"--root", dir, "mcp"}, cli.Env{Stdin: inR, Stdout: outW, Stderr: &stderr,
			Getenv: func(k string) string { return map[string]string{"TESTDEX_CACHE_DIR": "off"}[k] }, Environ: os.Environ(), Dir: t.TempDir()})
		outW.Close()
	}()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) != 5 { // discover_tests, run_tests, last_test_failures, affected_tests, tests_covering
		t.Fatalf("tools/list: %v, %v", tools, err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "discover_tests"})
	if err != nil || res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "1 tests") {
		t.Fatalf("discover_tests: %v, %+v", err, res)
	}
	// With the cache off, failures are not kept: a tool error that says so.
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "last_test_failures"})
	if err != nil || !res.IsError {
		t.Errorf("last_test_failures with the cache off: %v, %+v", err, res)
	}
	cs.Close()
	if c := <-code; c != 0 || stderr.Len() > 0 {
		t.Errorf("exit %d, stderr %q", c, stderr.String())
	}
}
