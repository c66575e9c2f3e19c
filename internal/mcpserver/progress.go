package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
)

// progressFor returns a run.Options.Live callback that sends MCP progress
// notifications while tests run, when the client asked for them with a
// progress token: the number of tests finished, out of those selected, at
// most twice a second. Without a token (or a session) it returns nil.
func progressFor(ctx context.Context, req *mcp.CallToolRequest, total int) func(testdex.Event) {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	var mu sync.Mutex
	done, failed := 0, 0
	var last time.Time
	return func(e testdex.Event) {
		if e.ID == "" || (e.Action != testdex.ActionPass && e.Action != testdex.ActionFail && e.Action != testdex.ActionSkip) {
			return
		}
		mu.Lock()
		done++
		if e.Action == testdex.ActionFail {
			failed++
		}
		if time.Since(last) < 500*time.Millisecond {
			mu.Unlock()
			return
		}
		last = time.Now()
		p := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(done), Total: float64(total),
			Message: fmt.Sprintf("%d finished, %d failed; last: %s", done, failed, e.ID)}
		mu.Unlock()
		_ = req.Session.NotifyProgress(ctx, p) // best effort: a lost notification changes nothing
	}
}
