package cli

import (
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
)

// progressEvery is the cadence of the progress line without a terminal.
const progressEvery = 10 * time.Second

// progress tells a person or a CI log that a run is alive, on stderr.
//
// On a terminal it is one status line, redrawn at most ten times a second
// and erased by finish: how many tests finished, how many failed, and the
// test that last started. Anywhere else (a CI log, a pipe) it prints a
// line on each tick of a steady cadence while tests run,
//
//	testdex: 120 done, 3 failed, running: ID (12s)
//
// naming the test running longest (or, before the runner reports any, the
// batch), and nothing when the run ends before the first tick. The total
// is not shown: the stream does not carry how many tests the runners will
// report.
type progress struct {
	mu   sync.Mutex
	w    io.Writer
	live bool             // a terminal: one line redrawn in place
	now  func() time.Time // the clock the running times are read on

	done, failed int
	total        int       // the tests the plan expects; 0 when unknown
	current      string    // the test that last started (terminal)
	last         time.Time // when the terminal line was last drawn
	drawn        bool      // the terminal line is on the screen
	running      map[string]started
	batches      map[string]time.Time // batches running, since when

	stop, stopped chan struct{} // end the ticking goroutine; it ended
	stopTicker    func()
	stopOnce      sync.Once
}

// started is a test that started, in which batch and when.
type started struct {
	batch string
	at    time.Time
}

// newProgress returns the progress of a run on w: a live line when w is a
// terminal, else a line every progressEvery.
func newProgress(w io.Writer) *progress {
	if isTerminal(w) {
		return &progress{w: w, live: true, now: time.Now}
	}
	t := time.NewTicker(progressEvery)
	p := newTickingProgress(w, time.Now, t.C)
	p.stopTicker = t.Stop
	return p
}

// newTickingProgress returns a progress that prints a line on w for each
// value received on tick, reading running times on now, until finish.
func newTickingProgress(w io.Writer, now func() time.Time, tick <-chan time.Time) *progress {
	p := &progress{w: w, now: now, running: map[string]started{}, batches: map[string]time.Time{},
		stop: make(chan struct{}), stopped: make(chan struct{})}
	go func() {
		defer close(p.stopped)
		for {
			select {
			case <-tick:
				p.print()
			case <-p.stop:
				return
			}
		}
	}()
	return p
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// event is a run.Options.Live callback.
func (p *progress) event(e testdex.Event) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.count(e)
	if !p.live || e.ID == "" || time.Since(p.last) < 100*time.Millisecond {
		return
	}
	p.last = time.Now()
	line := report.Escape(fmt.Sprintf("%d done, %d failed  %s", p.done, p.failed, p.current))
	if len(line) > 100 {
		n := 97
		for n > 0 && !utf8.RuneStart(line[n]) {
			n--
		}
		line = line[:n] + "..."
	}
	fmt.Fprintf(p.w, "\r\x1b[K%s", line)
	p.drawn = true
}

// count follows the tests and batches, counting tests as run.Summary does
// (a suite's result is its tests' unless it failed with its own message).
func (p *progress) count(e testdex.Event) {
	switch {
	case e.ID == "" && e.Action == testdex.ActionStart:
		if p.batches != nil {
			p.batches[e.Batch] = p.now()
		}
	case e.ID == "" && (e.Action == testdex.ActionPass || e.Action == testdex.ActionFail):
		delete(p.batches, e.Batch)
		for id, s := range p.running {
			if s.batch == e.Batch {
				delete(p.running, id)
			}
		}
	case e.ID == "":
	case e.Action == testdex.ActionRun:
		p.current = e.ID
		if p.running != nil && e.Kind != testdex.KindSuite {
			p.running[e.ID] = started{batch: e.Batch, at: p.now()}
		}
	case e.Action.Final():
		delete(p.running, e.ID)
		if e.Kind == testdex.KindSuite && (e.Action != testdex.ActionFail || e.Message == "") || e.Action == testdex.ActionUnreported || e.Action == testdex.ActionUnchanged {
			return
		}
		p.done++
		if e.Action == testdex.ActionFail {
			p.failed++
		}
	}
}

// planned is run.Options.Planned: the tests the plan expects.
func (p *progress) planned(n int) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.total = n
	p.mu.Unlock()
}

// print writes the line of one tick.
func (p *progress) print() {
	p.mu.Lock()
	defer p.mu.Unlock()
	line := fmt.Sprintf("testdex: %d done, %d failed", p.done, p.failed)
	if p.total > 0 {
		line = fmt.Sprintf("testdex: %d/%d done, %d failed", p.done, max(p.total, p.done), p.failed)
	}
	now := p.now()
	if id, s, more := p.longest(); id != "" {
		line += fmt.Sprintf(", running: %s (%s)", report.Escape(id), now.Sub(s.at).Round(time.Second))
		if more > 0 {
			line += fmt.Sprintf(" and %d more", more)
		}
	} else if b, at := p.oldestBatch(); b != "" {
		line += fmt.Sprintf(", running: batch %s (%s)", report.Escape(b), now.Sub(at).Round(time.Second))
	}
	fmt.Fprintln(p.w, line)
}

// longest returns the test running the longest (the first ID on a tie)
// and how many others run.
func (p *progress) longest() (string, started, int) {
	ids := make([]string, 0, len(p.running))
	for id := range p.running {
		ids = append(ids, id)
	}
	if len(ids) == 0 {
		return "", started{}, 0
	}
	sort.Slice(ids, func(i, j int) bool {
		a, b := p.running[ids[i]].at, p.running[ids[j]].at
		return a.Before(b) || a.Equal(b) && ids[i] < ids[j]
	})
	return ids[0], p.running[ids[0]], len(ids) - 1
}

// oldestBatch returns the batch running the longest.
func (p *progress) oldestBatch() (string, time.Time) {
	name, at := "", time.Time{}
	for b, t := range p.batches {
		if name == "" || t.Before(at) || t.Equal(at) && b < name {
			name, at = b, t
		}
	}
	return name, at
}

// finish erases the live line, or stops the ticking one.
func (p *progress) finish() {
	if p == nil {
		return
	}
	if !p.live {
		p.stopOnce.Do(func() {
			close(p.stop)
			<-p.stopped
			if p.stopTicker != nil {
				p.stopTicker()
			}
		})
		return
	}
	p.mu.Lock()
	p.erase()
	p.mu.Unlock()
}

// erase removes the terminal line if it is drawn: a run delivers
// hundreds of events between two draws, and a terminal fed an erase for
// each of them flickers (and a log of it fills with escapes).
func (p *progress) erase() {
	if p.drawn {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.drawn = false
	}
}

// around runs f (which writes the results) holding the line: on a terminal
// the line is erased if drawn, so results never interleave with it, and
// redrawn by a later event once its tenth of a second is up; elsewhere no tick prints in the middle of f's output.
func (p *progress) around(f func() error) error {
	if p == nil {
		return f()
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.live {
		p.erase() // redrawn by a later event, at most ten times a second
	}
	return f()
}

// colorMode is the value of run's --color flag: "auto" (the zero value),
// "always" or "never". It lives beside the progress line because both
// decide what reaches a terminal.
type colorMode string

// Set implements pflag.Value: a value other than the three is a usage
// error naming them.
func (m *colorMode) Set(s string) error {
	switch s {
	case "auto", "always", "never":
		*m = colorMode(s)
		return nil
	}
	return usageErr("--color takes auto, always or never")
}

func (m *colorMode) String() string {
	if *m == "" {
		return "auto"
	}
	return string(*m)
}

// Type implements pflag.Value (the word help shows for the value).
func (m *colorMode) Type() string { return "when" }

// enabled reports whether the text view is coloured: always; never; or,
// for auto, when stdout is a terminal, NO_COLOR is unset or empty
// (no-color.org) and TERM is not "dumb". --color=always wins over
// NO_COLOR, as no-color.org asks of a command-line flag.
func (m colorMode) enabled(env *Env) bool {
	switch m {
	case "always":
		return true
	case "never":
		return false
	}
	getenv := env.Getenv
	if getenv == nil {
		getenv = func(string) string { return "" }
	}
	return getenv("NO_COLOR") == "" && getenv("TERM") != "dumb" && isTerminal(env.Stdout)
}
