package cli

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"

	"github.com/testdex/testdex"
)

// progress draws one status line on a terminal while tests run: how many
// finished, how many failed, and the test that last started. It redraws
// at most ten times a second and is erased by done. On anything but a
// terminal it does nothing, so logs and pipes stay clean.
type progress struct {
	mu           sync.Mutex
	w            io.Writer
	done, failed int
	current      string
	last         time.Time
}

// newProgress returns a progress line on w, or nil when w is not a
// terminal.
func newProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return nil
	}
	return &progress{w: w}
}

// event is a run.Options.Live callback.
func (p *progress) event(e testdex.Event) {
	if p == nil || e.ID == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Action {
	case testdex.ActionRun:
		p.current = e.ID
	case testdex.ActionPass, testdex.ActionSkip:
		p.done++
	case testdex.ActionFail:
		p.done++
		p.failed++
	}
	if time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	line := fmt.Sprintf("%d done, %d failed  %s", p.done, p.failed, p.current)
	if len(line) > 100 {
		line = line[:97] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
}

// finish erases the line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	fmt.Fprint(p.w, "\r\x1b[K")
	p.mu.Unlock()
}

// around runs f (which writes to the terminal) with the line erased, so
// results never interleave with it; the line is redrawn on the next event.
func (p *progress) around(f func() error) error {
	if p == nil {
		return f()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprint(p.w, "\r\x1b[K")
	p.last = time.Time{}
	return f()
}
