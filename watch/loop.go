package watch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/testdex/testdex"
	"github.com/testdex/testdex/workspace"
)

// DefaultQuiet is how long the loop waits after the last file event
// before it runs: an editor's save is over within it (fsnotify's latency
// measured here at about 1 ms).
const DefaultQuiet = 100 * time.Millisecond

// Options configure a watch loop.
type Options struct {
	// Index lists the root, with its cache folder: each cycle lists again
	// and the cache keeps it incremental.
	Index workspace.Options
	// Paths are root-relative files and folders: only tests under them
	// run (as `testdex affected PATH...` reports). Empty means all.
	Paths []string
	// Run configures each cycle's run as `testdex run` does; Planned and
	// Live are the loop's own.
	Run workspace.RunOptions
	// CacheDir keeps the failures and the recorded coverage ("" none).
	CacheDir string
	// NoCoverage selects from the static evidence alone.
	NoCoverage bool
	// Quiet is the debounce window; 0 means DefaultQuiet.
	Quiet time.Duration
	// Stdout receives the report; Keys, when set, is a terminal in cbreak
	// mode (see Cbreak) read for commands; Screen clears it each cycle.
	Stdout         io.Writer
	Keys           io.Reader
	JSON           bool
	Screen         bool
	Color, Verbose bool
	// NewProgress, when set, makes each cycle's progress display (the
	// CLI's progress line on stderr, as `testdex run` shows it).
	NewProgress func() Progress
	// Warn receives warnings; nil drops them.
	Warn func(string)
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// Progress shows that a cycle's run is alive between its results.
type Progress interface {
	// Planned and Live receive what workspace.RunOptions' fields of the same names
	// receive.
	Planned(tests int)
	Live(e testdex.Event)
	// Around runs f, which writes the report, so that the display and the
	// report do not interleave on a terminal.
	Around(f func() error) error
	// Finish erases or ends the display; the run is over.
	Finish()
}

// Result is what the loop left when it stopped.
type Result struct {
	// Failing counts the tests still failing, and the selections whose
	// runner failed without results, when the loop stopped.
	Failing int
	// Interrupted is true when the loop stopped during a run, which was
	// cancelled.
	Interrupted bool
}

// loop is the state of one Run, owned by its goroutine.
type loop struct {
	o       Options
	ws      *workspace.Workspace // the engine each cycle's affected and run go through
	r       *renderer
	watcher *Watcher
	deb     *Debouncer
	ignore  []string // root-relative folders whose events are the loop's own (the cache)
	prev    *previous

	failing map[string]string
	retry   []item
	last    []item
	filters filters

	running     context.CancelFunc // nil when no cycle runs
	interrupted bool               // stop cancelled a run
	done        chan outcome
	queued      *request // a key's cycle, run when the current one ends
	due         bool     // the debounce window closed while a cycle ran
}

// Run watches the root of o.Index and runs cycles until ctx is cancelled
// or q is pressed. The error is non-nil only when watching cannot begin,
// or cannot go on: the root was removed (ErrRootGone).
func Run(ctx context.Context, o Options) (*Result, error) {
	l := &loop{o: o, failing: map[string]string{}, done: make(chan outcome, 1)}
	var err error
	if l.ws, err = workspace.Open(o.Index, o.CacheDir, o.Run.Env); err != nil {
		return nil, err
	}
	ix, err := l.ws.List(ctx, nil)
	var nt *workspace.NoTestsError
	if err != nil && !errors.As(err, &nt) {
		return nil, err
	}
	if err != nil {
		ix = nil // no tests yet: watch the root under its configuration until some appear
	}
	wo, err := l.ws.WalkOptions(ix)
	if err != nil {
		return nil, err
	}
	if l.o.Warn == nil {
		l.o.Warn = func(string) {}
	}
	l.o.Index.Root = l.ws.Root
	l.r = newRenderer(o.Stdout, o.JSON, o.Screen, o.Color, o.Verbose)
	l.filters.Scope = o.Paths
	quiet := o.Quiet
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	l.deb = NewDebouncer(quiet)
	l.deb.Now = o.Now
	if l.watcher, err = NewWatcher(ctx, l.ws.Root, wo, l.warn); err != nil {
		return nil, err
	}
	defer l.watcher.Close()
	if rel, err := filepath.Rel(l.ws.Root, o.CacheDir); o.CacheDir != "" && err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		l.ignore = append(l.ignore, filepath.ToSlash(rel))
	}
	return l.serve(ctx, l.ws.Root)
}

func (l *loop) warn(msg string) { l.o.Warn(msg) }

func (l *loop) now() time.Time {
	if l.o.Now != nil {
		return l.o.Now()
	}
	return time.Now()
}

// serve is the loop: it sleeps in one select until a file event, a key,
// the end of a cycle or the context wakes it.
func (l *loop) serve(ctx context.Context, root string) (*Result, error) {
	keys := make(chan key)
	stop := make(chan struct{})
	defer close(stop)
	if l.o.Keys != nil {
		go readKeys(l.o.Keys, keys, l.r.echo, stop)
	}
	set := startSet(ctx, l.ws)
	l.prev = newPrevious(ctx, l.ws, set)
	l.prev.keep(set)
	l.start(ctx, request{trigger: onStart, set: set})
	rootInfo, _ := os.Stat(root)
	check := time.NewTicker(rootCheckEvery)
	defer check.Stop()
	for {
		select {
		case <-ctx.Done():
			l.stop()
			return l.result(), nil
		case <-check.C:
			if err := rootGone(root, rootInfo); err != nil {
				l.stop()
				return l.result(), err
			}
		case ev, ok := <-l.watcher.Events():
			if !ok {
				return l.result(), nil
			}
			if filepath.Clean(ev.Name) == root || ev.Has(fsnotify.Remove) && filepath.Dir(ev.Name) == root {
				if err := rootGone(root, rootInfo); err != nil {
					l.stop()
					return l.result(), err
				}
			}
			for _, fe := range l.watcher.Handle(ctx, ev) {
				if !l.ignored(fe.Path) {
					l.deb.Add(fe)
				}
			}
		case err, ok := <-l.watcher.Errors():
			if ok {
				if errors.Is(err, fsnotify.ErrEventOverflow) {
					err = fmt.Errorf("%w: some saves went unseen (press a to run every test)", err)
				}
				l.warn("watch: " + err.Error())
			}
		case <-l.deb.C():
			l.due = true
			l.next(ctx)
		case k := <-keys:
			if l.key(ctx, k) {
				l.stop()
				return l.result(), nil
			}
		case out := <-l.done:
			l.running = nil
			l.merge(out)
			l.next(ctx)
		}
	}
}

// ErrRootGone is returned by Run when the watched root is removed or
// moved away: its watches are gone with it, and nothing there can be
// watched again without a new walk.
var ErrRootGone = errors.New("the watched root is gone")

// rootCheckEvery is how often the loop checks that its root is still
// there. The root's own removal event does not come while a process has
// the folder as its working folder (the kernel keeps the folder until the
// last reference goes, and says so only then): testdex itself often does.
const rootCheckEvery = time.Second

// rootGone returns an ErrRootGone error when root no longer is the folder
// it was when watching began (was: its file info then).
func rootGone(root string, was os.FileInfo) error {
	now, err := os.Stat(root)
	switch {
	case err != nil:
		return fmt.Errorf("%w: %s was removed or moved away (start watch again when it is back)", ErrRootGone, root)
	case was != nil && !os.SameFile(was, now):
		return fmt.Errorf("%w: %s was replaced by another folder (start watch again to watch the new one)", ErrRootGone, root)
	}
	return nil
}

// ignored reports whether an event is the loop's own doing.
func (l *loop) ignored(rel string) bool {
	for _, p := range l.ignore {
		if under(rel, p) {
			return true
		}
	}
	return false
}

// next starts the cycle that is due, when none runs: a save first, else
// a key's.
func (l *loop) next(ctx context.Context) {
	if l.running != nil {
		return
	}
	if l.due && l.deb.Pending() {
		l.due = false
		set, first := l.deb.Take(l.exists)
		l.prev.fill(set)
		if len(set) > 0 {
			l.start(ctx, request{trigger: onSave, set: set, saved: first})
			return
		}
	}
	if l.queued != nil {
		req := *l.queued
		l.queued = nil
		l.start(ctx, req)
	}
}

func (l *loop) exists(rel string) bool {
	return l.watcher.exists(rel)
}

// start runs a cycle on its own goroutine with a snapshot of the state.
func (l *loop) start(ctx context.Context, req request) {
	req.failing = make(map[string]string, len(l.failing))
	for id, f := range l.failing {
		req.failing[id] = f
	}
	req.retry, req.last, req.filters = l.retry, l.last, l.filters
	req.files, req.escapes = l.watcher.Files(), l.watcher.Escapes()
	cctx, cancel := context.WithCancel(ctx)
	l.running = cancel
	go func() {
		out := outcome{req: req}
		defer func() {
			// A panic ends the cycle, not the loop (nor the terminal's
			// mode): it is reported with its stack, as an error.
			if r := recover(); r != nil {
				out.err = fmt.Errorf("internal error: %v\n%s", r, debug.Stack())
			}
			cancel()
			l.done <- out
		}()
		out = l.cycle(cctx, req)
	}()
}

// stop cancels the running cycle, if any, and waits for it: run's
// cancellation kills its process groups.
func (l *loop) stop() {
	if l.running == nil {
		return
	}
	l.running()
	<-l.done
	l.running, l.interrupted = nil, true
}

// key acts on a key; it reports whether the loop should end.
func (l *loop) key(ctx context.Context, k key) bool {
	var req *request
	switch k.cmd {
	case cmdQuit:
		return true
	case cmdHelp:
		l.r.note(helpLine)
	case cmdAll:
		req = &request{trigger: onAll}
	case cmdFailed:
		req = &request{trigger: onFailed}
	case cmdRerun:
		req = &request{trigger: onRerun}
	case cmdName, cmdPath:
		re, err := compile(k.pattern)
		if err != nil {
			l.r.note("not a regular expression: " + err.Error())
			return false
		}
		if k.cmd == cmdName {
			l.filters.Name = re
		} else {
			l.filters.Path = re
		}
		req = &request{trigger: onFilter}
	}
	if req != nil {
		l.queued = req
		l.next(ctx)
	}
	return false
}

// compile compiles a filter; the empty pattern clears the filter (nil).
func compile(pattern string) (*regexp.Regexp, error) {
	if pattern == "" {
		return nil, nil
	}
	return regexp.Compile(pattern)
}

// merge takes a cycle's results into the state: a test that failed stays
// on the failing list until it passes (or is skipped), and a selection
// whose runner failed without results is retried with every change.
func (l *loop) merge(out outcome) {
	for _, id := range out.gone {
		delete(l.failing, id)
	}
	for id, e := range out.results {
		if e.Action == "fail" {
			l.failing[id] = e.File
		} else {
			delete(l.failing, id)
		}
	}
	if out.sum != nil {
		if len(out.sum.Errors) > 0 {
			l.retry = dedupe(append(l.retry, out.items...))
		} else if out.err == nil && covers(out.req.trigger) {
			l.retry = nil
		}
	}
	if len(out.items) > 0 {
		l.last = out.items
	}
	var timeout time.Duration
	if out.sum != nil {
		timeout = l.o.Run.Timeout
	}
	if out.err != nil && !errors.Is(out.err, context.Canceled) {
		l.r.note("testdex: " + out.err.Error())
	}
	l.r.end(out.sum, timeout, out.first, l.failingCount())
}

// covers reports whether a cycle of the trigger reruns the retried
// selections.
func covers(t trigger) bool { return t == onSave || t == onFailed || t == onAll || t == onStart }

func (l *loop) failingCount() int { return len(l.failing) + len(l.retry) }

func (l *loop) result() *Result {
	return &Result{Failing: l.failingCount(), Interrupted: l.interrupted}
}
