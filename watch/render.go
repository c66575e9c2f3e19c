package watch

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/internal/report"
	"github.com/testdex/testdex/workspace"
)

// helpLine names the keys, as Jest's watch usage does in one line.
const helpLine = "watch: a all · f failed · t name filter · p path filter · Enter rerun · q quit"

// cycleEvent is the one JSON line --json adds per cycle, before the run's
// events: what changed (root-relative paths; empty for a key) and how
// many tests the plan expects.
type cycleEvent struct {
	Time     time.Time `json:"time"`
	Action   string    `json:"action"` // "cycle"
	Trigger  string    `json:"trigger"`
	Changed  []string  `json:"changed"`
	Selected int       `json:"selected"`
}

// renderer writes the loop's output: a screen per cycle on a terminal,
// the run's text report in a log, or the run's JSON Lines with one cycle
// event per cycle. One writer, guarded, since the loop (notes, prompts)
// and a running cycle (events) both write.
type renderer struct {
	mu      sync.Mutex
	w       *bufio.Writer
	json    bool
	screen  bool // a terminal: each cycle clears it
	color   bool
	verbose bool
	enc     *json.Encoder // the cycle events
	events  *report.JSON  // the run's events, as `run --json` writes them
	text    *report.Text
}

func newRenderer(w io.Writer, jsonOut, screen, color, verbose bool) *renderer {
	r := &renderer{w: bufio.NewWriter(w), json: jsonOut, screen: screen && !jsonOut, color: color, verbose: verbose}
	r.enc = json.NewEncoder(r.w)
	r.enc.SetEscapeHTML(false)
	r.events = report.NewJSON(r.w)
	return r
}

// begin starts a cycle's output: a cleared screen and a header, or the
// cycle event.
func (r *renderer) begin(trigger string, set workspace.ChangeSet, selected int, now time.Time, f filters) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.w.Flush()
	changed := make([]string, 0, len(set))
	for _, c := range set {
		changed = append(changed, c.Path)
	}
	if r.json {
		_ = r.enc.Encode(cycleEvent{Time: now, Action: "cycle", Trigger: trigger, Changed: changed, Selected: selected})
		return
	}
	if r.screen {
		fmt.Fprint(r.w, "\x1b[H\x1b[2J")
	}
	what := trigger
	if len(changed) > 0 {
		what = "changed " + shortList(changed, 5)
	}
	fmt.Fprintf(r.w, "── %s · %s · %d %s%s\n", now.Format("15:04:05"), what, selected, plural(selected, "test", "tests"), f.String())
	r.text = &report.Text{W: r.w, Verbose: r.verbose, Color: r.color}
}

// Event implements workspace.Handler: the run's events as `testdex run` shows
// them.
func (r *renderer) Event(e testdex.Event) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	var err error
	if r.json {
		err = r.events.Event(e)
	} else if r.text != nil {
		err = r.text.Event(e)
	}
	if err != nil {
		return err
	}
	return r.w.Flush()
}

// end closes a cycle: the run's summary, the time from the save to the
// first result, the failing tests left, and the keys.
func (r *renderer) end(sum *workspace.Summary, timeout time.Duration, firstResult time.Duration, failing int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.w.Flush()
	if r.json {
		return
	}
	if sum != nil && r.text != nil {
		r.text.Summary(sum, timeout)
	}
	if firstResult > 0 {
		fmt.Fprintf(r.w, "first result %dms after the save\n", firstResult.Milliseconds())
	}
	if failing > 0 {
		fmt.Fprintf(r.w, "%d %s still failing: rerun with every change until they pass\n", failing, plural(failing, "test", "tests"))
	}
	fmt.Fprintln(r.w, helpLine)
}

// note says something between cycles: on stdout in text, on stderr (warn)
// with --json so the stream stays events.
func (r *renderer) note(msg string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	defer r.w.Flush()
	if r.json {
		return
	}
	fmt.Fprintln(r.w, msg)
}

// echo writes what a prompt shows while a pattern is typed.
func (r *renderer) echo(s string) {
	if s == "" || r.json {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprint(r.w, s)
	r.w.Flush()
}

func shortList(paths []string, n int) string {
	if len(paths) <= n {
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:n], ", "), len(paths)-n)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
