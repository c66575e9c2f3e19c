package mcpserver_test

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex/internal/mcpserver"
)

// TestRunTestsProgress: a client that sends a progress token with
// run_tests receives progress notifications, the first at once, with
// done/total in the message and progress that never goes back. (The
// cadence is TestProgressCadence's, on a fake clock.)
func TestRunTestsProgress(t *testing.T) {
	root := goFixture(t)
	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, err := mcpserver.New(mcpserver.Config{Root: root, CacheDir: t.TempDir(), Environ: os.Environ()}).Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ss.Close()
	var mu sync.Mutex
	var got []*mcp.ProgressNotificationParams
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "v0"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, r *mcp.ProgressNotificationClientRequest) {
			mu.Lock()
			got = append(got, r.Params)
			mu.Unlock()
		},
	})
	cs, err := client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	params := &mcp.CallToolParams{Name: "run_tests", Arguments: map[string]any{"ids": []string{"run_test.go::TestPass"}}}
	params.SetProgressToken("tok-1")
	if _, err := cs.CallTool(ctx, params); err != nil {
		t.Fatal(err)
	}
	// Notifications may be handled just after the result arrives.
	for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 {
			break
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || got[0].Progress != 0 || !strings.HasPrefix(got[0].Message, "0/") {
		t.Fatalf("progress notifications: %+v", got)
	}
	for i, n := range got {
		if n.ProgressToken != "tok-1" || n.Total < n.Progress || (i > 0 && n.Progress < got[i-1].Progress) ||
			!strings.HasPrefix(n.Message, fmt.Sprintf("%d/%d tests finished", int(n.Progress), int(n.Total))) {
			t.Errorf("notification %d: %+v", i, n)
		}
	}
}
