package mcpserver_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/mcpserver"
)

// TestStopDuringRun stops the server (as SIGTERM does 'testdex mcp')
// while run_tests runs a test that never ends: the run is cancelled, the
// pending call is answered with what ran (cancelled, exit 130), and Serve
// returns nil at once, not when the run's 300 s are up.
func TestStopDuringRun(t *testing.T) {
	dir := goFixture(t)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() {
		served <- mcpserver.Serve(ctx, mcpserver.Config{Root: dir, Environ: append(os.Environ(), "TESTDEX_FIXTURE_HANG=1")}, inR, outW)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, nil).Connect(context.Background(), &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	type answer struct {
		res *mcp.CallToolResult
		err error
	}
	answered := make(chan answer, 1)
	go func() {
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "run_tests", Arguments: map[string]any{"ids": []string{"run_test.go::TestHang"}}})
		answered <- answer{res, err}
	}()
	time.Sleep(3 * time.Second) // the test is hanging by now
	began := time.Now()
	stop()
	select {
	case a := <-answered:
		if a.err != nil || a.res.IsError {
			t.Fatalf("run_tests: %v %+v", a.err, a.res)
		}
		var out struct {
			Exit      int
			Cancelled bool
		}
		decodeContent(t, a.res.StructuredContent, &out)
		if out.Exit != mcpserver.ExitCancelled || !out.Cancelled {
			t.Errorf("run_tests answered %+v, want cancelled with exit %d", out, mcpserver.ExitCancelled)
		}
	case <-time.After(15 * time.Second):
		t.Fatal("run_tests was not answered after the stop")
	}
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v, want nil", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return after the stop")
	}
	if d := time.Since(began); d > 10*time.Second {
		t.Errorf("stopping took %v", d)
	}
}

// TestStopIdle: a server stopped with nothing running returns nil at once.
func TestStopIdle(t *testing.T) {
	inR, _ := io.Pipe()
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- mcpserver.Serve(ctx, mcpserver.Config{Root: t.TempDir()}, inR, io.Discard) }()
	time.Sleep(100 * time.Millisecond)
	stop()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("Serve: %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the stop")
	}
}

// decodeContent decodes a tool's structured content into out.
func decodeContent(t *testing.T, content any, out any) {
	t.Helper()
	data, _ := json.Marshal(content)
	if err := json.Unmarshal(data, out); err != nil {
		t.Fatalf("structured content %s: %v", data, err)
	}
}
