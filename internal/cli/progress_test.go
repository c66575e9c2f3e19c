package cli

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/testdex/testdex"
)

// fakeClock is a clock a test moves by hand.
type fakeClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) advance(d time.Duration) time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
	return c.now
}

// lines is a writer whose every write the test receives, so that it can
// wait for a tick's line before it goes on.
type lines chan string

func (l lines) Write(b []byte) (int, error) {
	l <- string(b)
	return len(b), nil
}

// TestProgressCadence drives the log progress line with a hand-made
// ticker: one line per tick, with the counts and the test running
// longest, and nothing once finished.
func TestProgressCadence(t *testing.T) {
	clock := &fakeClock{now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	tick := make(chan time.Time)
	out := make(lines)
	p := newTickingProgress(out, clock.Now, tick)
	ev := func(a testdex.Action, id string, kind testdex.Kind) {
		p.event(testdex.Event{Action: a, ID: id, Batch: ". go", Kind: kind})
	}
	expect := func(want string) {
		t.Helper()
		tick <- clock.Now()
		if got := <-out; got != want {
			t.Errorf("progress printed %q, want %q", got, want)
		}
	}
	ev(testdex.ActionStart, "", "")
	clock.advance(10 * time.Second)
	expect("testdex: 0 done, 0 failed, running: batch . go (10s)\n") // the runner is still building
	ev(testdex.ActionRun, "a_test.go::TestSlow", "")
	clock.advance(2 * time.Second)
	ev(testdex.ActionRun, "a_test.go::TestQuick", "")
	ev(testdex.ActionRun, "a_test.go::Suite", testdex.KindSuite)
	ev(testdex.ActionFail, "a_test.go::TestQuick", "")
	ev(testdex.ActionRun, "a_test.go::TestOther", "")
	ev(testdex.ActionPass, "a_test.go::TestDone", "")
	ev(testdex.ActionUnreported, "a_test.go::TestNever", "")
	ev(testdex.ActionFail, "a_test.go::Suite", testdex.KindSuite) // its tests' result: not counted
	clock.advance(10 * time.Second)
	expect("testdex: 2 done, 1 failed, running: a_test.go::TestSlow (12s) and 1 more\n")
	ev(testdex.ActionPass, "", "") // the batch ends: nothing runs
	clock.advance(10 * time.Second)
	expect("testdex: 2 done, 1 failed\n")
	p.finish()
	select {
	case tick <- clock.Now():
		t.Error("a tick was taken after finish")
	case <-time.After(50 * time.Millisecond):
	}
	p.finish() // a second finish is harmless
}

// TestProgressQuietRun checks that a run ending before the first tick
// prints nothing, and that a test's ID is escaped.
func TestProgressQuietRun(t *testing.T) {
	out := make(lines, 1)
	p := newTickingProgress(out, time.Now, make(chan time.Time))
	p.event(testdex.Event{Action: testdex.ActionRun, ID: "a::b"})
	p.event(testdex.Event{Action: testdex.ActionPass, ID: "a::b"})
	p.finish()
	if len(out) != 0 {
		t.Errorf("a run shorter than a tick printed %q", <-out)
	}

	tick := make(chan time.Time)
	p = newTickingProgress(out, time.Now, tick)
	p.event(testdex.Event{Action: testdex.ActionRun, ID: "a::b\x1b[2J"})
	tick <- time.Now()
	if got := <-out; !strings.Contains(got, `running: a::b\x1b[2J (0s)`) {
		t.Errorf("progress line %q does not escape the ID", got)
	}
	p.finish()
}

func TestColorMode(t *testing.T) {
	var buf bytes.Buffer
	env := func(noColor string) *Env {
		return &Env{Stdout: &buf, Getenv: func(k string) string {
			if k == "NO_COLOR" {
				return noColor
			}
			return ""
		}}
	}
	for _, c := range []struct {
		mode    colorMode
		noColor string
		want    bool
	}{
		{"", "", false}, // auto, and a buffer is no terminal
		{"auto", "", false},
		{"always", "", true},
		{"always", "1", true}, // the flag wins over NO_COLOR
		{"never", "", false},
	} {
		if got := c.mode.enabled(env(c.noColor)); got != c.want {
			t.Errorf("--color=%s with NO_COLOR=%q: colour %v, want %v", c.mode, c.noColor, got, c.want)
		}
	}
	var m colorMode
	if err := m.Set("always"); err != nil || m.String() != "always" {
		t.Errorf("Set(always): %v, %q", err, m.String())
	}

	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), []string{"run", "--color", "blue"}, Env{Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" }, Dir: t.TempDir()})
	if code != ExitUsage || !strings.Contains(stderr.String(), "auto, always or never") {
		t.Errorf("--color blue: exit %d, stderr %q; want exit %d naming the values", code, stderr.String(), ExitUsage)
	}
}

// TestProgressLiveLineIsQuiet: on a terminal, the events delivered between
// two draws of the line (hundreds of output lines) do not each erase it:
// the escape is written only when the line is on the screen, and the line
// is drawn at most ten times a second.
func TestProgressLiveLineIsQuiet(t *testing.T) {
	var b bytes.Buffer
	p := &progress{w: &b, live: true, now: time.Now}
	start := time.Now()
	for i := range 500 {
		id := "t.go::TestX"
		p.event(testdex.Event{Action: testdex.ActionRun, ID: id})
		p.around(func() error { b.WriteString("output line\n"); return nil })
		p.event(testdex.Event{Action: testdex.ActionPass, ID: id, Occurrence: i})
	}
	p.finish()
	draws := strings.Count(b.String(), "\r\x1b[K")
	// Each draw writes one escape and is erased by at most one more.
	if limit := 2 * (int(time.Since(start)/(100*time.Millisecond)) + 2); draws > limit {
		t.Errorf("%d erase sequences for 500 events in %v, want at most %d", draws, time.Since(start), limit)
	}
	if !strings.Contains(b.String(), "output line") {
		t.Errorf("the output was lost")
	}
}
