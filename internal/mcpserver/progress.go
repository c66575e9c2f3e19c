package mcpserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/testdex/testdex"
)

// The cadence of run_tests' progress notifications: at most one every
// progressMin, and at least one every progressMax while tests run, so a
// client sees neither a flood (one per test) nor silence (one slow test).
const (
	progressMin = time.Second
	progressMax = 10 * time.Second
)

// progressFor returns a run.Options.Live callback for run_tests, when the
// client asked for progress with a progress token: one notification at
// once, then one on each progressMin tick on which tests finished or
// started, and one each progressMax regardless, until ctx ends (runTool
// ends it when the run returns). Without a token (or a session) it
// returns nil.
func progressFor(ctx context.Context, req *mcp.CallToolRequest, total int) *progress {
	if req == nil || req.Session == nil || req.Params == nil {
		return nil
	}
	token := req.Params.GetProgressToken()
	if token == nil {
		return nil
	}
	p := newProgress(total, time.Now, func(done, total int, msg string) {
		n := &mcp.ProgressNotificationParams{ProgressToken: token, Progress: float64(done), Total: float64(total), Message: msg}
		_ = req.Session.NotifyProgress(ctx, n) // best effort: a lost notification changes nothing
	})
	p.tick(time.Now())
	ticker := time.NewTicker(progressMin)
	go func() {
		defer ticker.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case now := <-ticker.C:
				p.tick(now)
			}
		}
	}()
	return p
}

// live is the run's Live callback; nil for no progress.
func (p *progress) live() func(testdex.Event) {
	if p == nil {
		return nil
	}
	return p.event
}

// planned is the run's Planned callback: the number of tests the plan
// expects becomes the total.
func (p *progress) planned() func(int) {
	if p == nil {
		return nil
	}
	return func(n int) {
		p.mu.Lock()
		p.total = n
		p.mu.Unlock()
	}
}

// progress keeps the state of a run for its notifications: the tests
// finished and failed, and those running with their start. Its event and
// tick methods may be called from different goroutines.
type progress struct {
	total int
	now   func() time.Time
	send  func(done, total int, msg string)

	mu      sync.Mutex
	done    int
	failed  int
	running map[string]time.Time // test ID to its start
	last    string               // the test that finished last
	changed bool                 // since the last notification
	sentAt  time.Time            // zero before the first
}

func newProgress(total int, now func() time.Time, send func(done, total int, msg string)) *progress {
	return &progress{total: total, now: now, send: send, running: map[string]time.Time{}, changed: true}
}

// event records a test starting or ending; it sends nothing.
func (p *progress) event(e testdex.Event) {
	if e.ID == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case e.Action == testdex.ActionRun:
		p.running[e.ID] = p.now()
	case e.Action.Final():
		delete(p.running, e.ID)
		p.done++
		if e.Action == testdex.ActionFail {
			p.failed++
		}
		p.last = e.ID
	default:
		return
	}
	p.changed = true
}

// tick sends a notification when something changed since the last one,
// or when progressMax passed without one. Called each progressMin, it
// keeps the cadence.
func (p *progress) tick(now time.Time) {
	p.mu.Lock()
	if !p.changed && now.Sub(p.sentAt) < progressMax {
		p.mu.Unlock()
		return
	}
	p.changed, p.sentAt = false, now
	done, total, msg := p.done, max(p.total, p.done), p.message(now)
	p.mu.Unlock()
	p.send(done, total, msg)
}

// message says how far the run is and what it is doing: the test running
// longest (the one to suspect when a run stalls), or else the one that
// finished last.
func (p *progress) message(now time.Time) string {
	s := fmt.Sprintf("%d/%d tests finished, %d failed", p.done, max(p.total, p.done), p.failed)
	var id string
	var start time.Time
	for r, t := range p.running {
		if id == "" || t.Before(start) || (t.Equal(start) && r < id) {
			id, start = r, t
		}
	}
	switch {
	case id != "":
		s += fmt.Sprintf("; running: %s (%ds)", textID(id), int(now.Sub(start).Seconds()))
		if n := len(p.running); n > 1 {
			s += fmt.Sprintf(" and %d more", n-1)
		}
	case p.last != "":
		s += "; last finished: " + textID(p.last)
	}
	return s
}
